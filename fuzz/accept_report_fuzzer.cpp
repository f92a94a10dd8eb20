// Fuzzes report.json as `gpuvet compare` reads it back: parse, compare against itself, and render
// again. A report gpuvet accepted must survive its own round trip; a rejected one must give a
// bad_input Error naming the file.
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

#include "accept/accept_json.hpp"
#include "accept/compare.hpp"

namespace accept = gpuvet::accept;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto report = accept::parse_report_json(text, "fuzz-report.json");
  if (!report) {
    const auto& error = report.error();
    if (error.kind != gpuvet::core::ErrorKind::bad_input || error.message.find("fuzz-report.json") == std::string::npos) {
      __builtin_trap();
    }
    return 0;
  }
  const std::vector<std::pair<std::string, accept::AcceptReport>> pair{{"a", report.value()}, {"b", report.value()}};
  const auto table = accept::compare_reports(pair);
  for (const auto& row : table.rows) {
    for (const auto& cell : row.cells) (void)accept::cell_text(cell);
  }
  if (!accept::parse_report_json(accept::render_report_json(report.value()), "rendered.json")) __builtin_trap();
  return 0;
}
