// NVLink error counters from nvidia-smi nvlink -e / -ec (per port, since the last reset), and
// GPUs in MIG mode. One reading cannot show growth: any error counted is worth a warning, and a
// counter pinned at its largest value has saturated and hides how many errors there were.
#include <map>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "analysis/finding_codes.hpp"
#include "analysis/rules.hpp"

namespace gpuvet::analysis {
namespace {

bool saturated(std::uint64_t v) { return v == 0xffffULL || v == 0xffffffffULL || v == 0xffffffffffffffffULL; }

}  // namespace

std::vector<core::Finding> check_nvlink_counters(const RuleContext& ctx) {
  std::vector<core::Finding> out;
  for (const auto& gpu : ctx.machine.gpus) {
    if (!gpu.nvlinks) continue;
    std::vector<std::string> counts;
    bool any_saturated = false;
    for (const auto& port : *gpu.nvlinks) {
      if (!port.error_counters) continue;
      for (const auto& c : *port.error_counters) {
        if (c.value == 0) continue;
        const bool sat = saturated(c.value);
        any_saturated = any_saturated || sat;
        counts.push_back(sat ? fmt::format("link {} {}: {} (saturated: the true count is higher and unknown)", port.link, c.name, c.value)
                             : fmt::format("link {} {}: {}", port.link, c.name, c.value));
      }
    }
    if (counts.empty()) continue;
    auto f = make_finding(code::nvlink_error_counters, core::Severity::warn, {gpu.index},
                          fmt::format("GPU {} has counted NVLink errors since the counters were last reset: {}", gpu.index,
                                      fmt::join(counts, "; ")));
    f.evidence = {{"counters", fmt::format("{}", fmt::join(counts, "; "))}, {"saturated", any_saturated ? "yes" : "no"}};
    out.push_back(std::move(f));
  }
  return out;
}

std::vector<core::Finding> check_mig(const RuleContext& ctx) {
  std::vector<int> gpus;
  for (const auto& gpu : ctx.machine.gpus) {
    if (known_true(gpu.mig_enabled)) gpus.push_back(gpu.index);
  }
  if (gpus.empty()) return {};
  auto f = make_finding(code::mig_enabled, core::Severity::warn, gpus,
                        fmt::format("MIG mode is enabled on {}: each is split into GPU instances, so whole-GPU benchmarks, "
                                    "NCCL across GPUs and peer copies cannot use {} as a whole",
                                    describe_gpus(gpus), gpus.size() == 1 ? "it" : "them"));
  return {f};
}

}  // namespace gpuvet::analysis
