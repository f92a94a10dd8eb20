// scaling_below_expected: the all-GPU run's busbw against the best run of the next smaller sets
// (4-GPU subsets on 8-GPU nodes, pairs on 4-GPU nodes). busbw already normalises for the rank
// count (nccl-tests doc/PERFORMANCE.md), so a fabric that scales linearly keeps it level
// (ring) or raises it (NVLS); a drop means the larger set meets a slower path or a slow member.
#include <fmt/format.h>

#include "analysis/finding_codes.hpp"
#include "analysis/rule_support.hpp"
#include "analysis/scaling_paths.hpp"

namespace gpuvet::analysis {
namespace {

constexpr double kWarnEfficiency = 0.90;  // below 90 % of the best smaller set: warn
constexpr double kFailEfficiency = 0.75;  // below 75 %: fail
// When the topology explains the drop (the larger set has to cross a slower path, e.g. the
// socket link on a PCIe server), the drop is information. Below half, a machine that mixes GPU
// models (the 4+4 "8-card NVLink" trap: an SXM board plus PCIe cards) fails: no uniform offer
// is built like that. A uniform PCIe server whose cards are bridged in pairs never promised a
// full mesh, so there the loss is a warning; a spec's interconnect claim decides the rest.
constexpr double kExplainedFloor = 0.50;

// True when every GPU of `gpus` reports the same model name (unknown names count as different).
bool uniform_models(const core::Machine& machine, const std::vector<int>& gpus) {
  std::string first;
  for (int g : gpus) {
    const int pos = core::position_of_gpu(machine, g);
    if (pos < 0 || !machine.gpus[static_cast<std::size_t>(pos)].name) return false;
    const std::string& name = *machine.gpus[static_cast<std::size_t>(pos)].name;
    if (first.empty()) first = name;
    if (name != first) return false;
  }
  return true;
}

}  // namespace

std::optional<core::Finding> judge_scaling(const ScalingObservation& obs, const core::Machine& machine) {
  if (!obs.all || !obs.all->busbw_gbps) return std::nullopt;
  const auto& smaller = obs.subsets.empty() ? obs.pairs : obs.subsets;
  const SubsetBusbw* best = nullptr;
  for (const auto& s : smaller) {
    if (s.busbw_gbps && (!best || *s.busbw_gbps > *best->busbw_gbps)) best = &s;
  }
  if (best == nullptr) return std::nullopt;
  const double all = *obs.all->busbw_gbps;
  const double ref = *best->busbw_gbps;
  const double efficiency = all / ref;
  if (efficiency >= kWarnEfficiency) return std::nullopt;
  const auto all_path = worst_path(machine, obs.all->gpus);
  const auto best_path = worst_path(machine, best->gpus);
  const bool explained = all_path && best_path && slower_path(*all_path, *best_path);
  core::Severity severity = core::Severity::warn;
  if (explained) {
    if (efficiency >= kExplainedFloor) {
      severity = core::Severity::info;
    } else {
      severity = uniform_models(machine, obs.all->gpus) ? core::Severity::warn : core::Severity::fail;
    }
  } else if (efficiency < kFailEfficiency) {
    severity = core::Severity::fail;
  }
  const auto n_all = obs.all->gpus.size();
  const auto n_best = best->gpus.size();
  std::string why = explained ? fmt::format("; the {} GPUs include pairs joined only by {} while {} are all joined by {} "
                                            "or better",
                                            n_all, path_key(all_path), describe_gpus(best->gpus), path_key(best_path))
                              : std::string("; the topology does not explain it: look for a slow GPU or link");
  auto f = make_finding(code::scaling_below_expected, severity, obs.all->gpus,
                        fmt::format("{} does not scale from {} to {} GPUs: busbw {} GB/s on all {} vs {} GB/s on the "
                                    "best {} ({}), {:.0f} % efficiency{}",
                                    obs.op, n_best, n_all, format_gbps(all), n_all, format_gbps(ref), n_best,
                                    describe_gpus(best->gpus), efficiency * 100, why));
  f.evidence = {{fmt::format("busbw on {} GPUs", n_all), format_gbps(all) + " GB/s"},
                {fmt::format("best busbw on {} GPUs", n_best), format_gbps(ref) + " GB/s"},
                {"scaling efficiency", fmt::format("{:.0f} %", efficiency * 100)},
                {"size", fmt::format("{} B", obs.size_bytes)},
                {"slowest path (all / best subset)", path_key(all_path) + " / " + path_key(best_path)}};
  return f;
}

}  // namespace gpuvet::analysis
