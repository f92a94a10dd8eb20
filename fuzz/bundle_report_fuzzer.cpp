// Fuzzes report.json as every reader of bundles takes it (compare, plan --offer, trend and monitor
// --baseline: bundle/checked_report): schema, parse and plausible numbers, then what plan and
// compare compute from it. A rejected input must give a bad_input Error naming the file; an
// accepted one must give finite numbers and a GPU count plan can use, all the way through.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "accept/compare.hpp"
#include "bundle/checked_report.hpp"
#include "plan/offer.hpp"

namespace {

void finite(const std::optional<double>& v) {
  if (v && !std::isfinite(*v)) __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto report = gpuvet::bundle::parse_checked_report(text, "fuzz-report.json");
  if (!report) {
    const auto& error = report.error();
    if (error.kind != gpuvet::core::ErrorKind::bad_input || error.message.find("fuzz-report.json") == std::string::npos) {
      __builtin_trap();
    }
    return 0;
  }
  const auto measured = gpuvet::plan::measured_from_report(report.value(), "fuzz");
  if (measured.gpus && (*measured.gpus < 1 || *measured.gpus > 64)) __builtin_trap();
  for (const auto& v : {measured.all_reduce_busbw_gbps, measured.all_gather_busbw_gbps, measured.p2p_gbps, measured.tflops,
                        measured.memory_gib}) {
    finite(v);
  }
  const std::vector<std::pair<std::string, gpuvet::accept::AcceptReport>> pair{{"a", report.value()}, {"b", report.value()}};
  const auto table = gpuvet::accept::compare_reports(pair);
  for (const auto& row : table.rows) {
    for (const auto& cell : row.cells) (void)gpuvet::accept::cell_text(cell);
  }
  for (const auto& row : table.metrics) {
    for (const auto& cell : row.cells) {
      finite(cell.value);
      (void)gpuvet::accept::metric_cell_text(row, cell);
    }
  }
  return 0;
}
