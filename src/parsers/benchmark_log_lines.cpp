// Quote prefixes, cut last lines and crash lines of pasted benchmark logs (see the header).
#include "parsers/benchmark_log_lines.hpp"

#include <fmt/format.h>

#include "parsers/nccl_tests_table.hpp"

namespace gpuvet::parsers {

std::string_view strip_quote_prefix(std::string_view line) {
  size_t i = 0;
  while (i < line.size() && line[i] == ' ' && i < 3) ++i;
  if (i >= line.size() || line[i] != '>') return line;
  if (i + 1 == line.size()) return line.substr(i + 1);
  if (line[i + 1] != ' ') return line;
  return line.substr(i + 2);
}

std::vector<Line> benchmark_lines(std::string_view text) {
  auto lines = split_lines(text);
  for (auto& line : lines) {
    bool prefixed = false;
    const auto unquoted = strip_quote_prefix(line.text);
    const auto bare = strip_launcher_prefix(unquoted, &prefixed);
    if (bare.size() != line.text.size()) line.text = std::string(bare);
  }
  return lines;
}

bool is_last_line(const std::vector<Line>& lines, size_t i) {
  for (size_t k = i + 1; k < lines.size(); ++k) {
    if (!trim(lines[k].text).empty()) return false;
  }
  return i < lines.size();
}

bool is_crash_line(std::string_view t) {
  for (const char* s : {"Segmentation fault", "core dumped", "terminate called after throwing", "Bus error",
                        "Floating point exception", "Illegal instruction"}) {
    if (t.find(s) != std::string_view::npos) return true;
  }
  if (t == "Aborted" || starts_with(t, "Aborted (")) return true;
  if (starts_with(t, "CUDA error at ") || starts_with(t, "CUDA error:") || starts_with(t, "cudaError")) return true;
  return t.find("code=") != std::string_view::npos && t.find("(cuda") != std::string_view::npos;
}

std::string quote_line(int number, std::string_view t) {
  const auto body = trim(t);
  if (body.size() <= 300) return fmt::format("line {}: {}", number, body);
  return fmt::format("line {}: {} ...", number, body.substr(0, 300));
}

}  // namespace gpuvet::parsers
