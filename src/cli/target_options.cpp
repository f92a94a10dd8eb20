// --gpus, parsed once for every measuring command (--sim/--fault/--seed: cli/target.hpp).
#include "cli/target_options.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>

namespace gpuvet::cli {

core::Result<std::vector<int>> parse_gpu_list(const std::string& text) {
  std::vector<int> out;
  if (text.empty()) return out;
  std::size_t start = 0;
  while (start <= text.size()) {
    const auto comma = std::min(text.find(',', start), text.size());
    const std::string item = text.substr(start, comma - start);
    const auto dash = item.find('-');
    const std::size_t lo_end = dash == std::string::npos ? item.size() : dash;
    int lo = 0;
    int hi = 0;
    const auto a = std::from_chars(item.data(), item.data() + lo_end, lo);
    bool ok = a.ec == std::errc() && a.ptr == item.data() + lo_end && lo >= 0;
    hi = lo;
    if (ok && dash != std::string::npos) {
      const auto b = std::from_chars(item.data() + dash + 1, item.data() + item.size(), hi);
      ok = b.ec == std::errc() && b.ptr == item.data() + item.size() && hi >= lo;
    }
    if (!ok) return core::usage_error(fmt::format("--gpus: '{}' is not a GPU index or range (e.g. 0,2,4-7)", item));
    for (int g = lo; g <= hi; ++g) {
      if (std::find(out.begin(), out.end(), g) != out.end()) return core::usage_error(fmt::format("--gpus: GPU {} given twice", g));
      out.push_back(g);
    }
    start = comma + 1;
  }
  return out;
}

core::Result<std::vector<int>> select_gpus(const std::string& text, const core::Machine& machine) {
  std::vector<int> out;
  if (text.empty()) {
    for (const auto& g : machine.gpus) out.push_back(g.index);
    return out;
  }
  auto parsed = parse_gpu_list(text);
  if (!parsed) return parsed.error();
  for (int g : *parsed) {
    if (core::position_of_gpu(machine, g) < 0) return core::usage_error(fmt::format("--gpus: this machine has no GPU {}", g));
  }
  return parsed;
}

}  // namespace gpuvet::cli
