// Fault overlays that show up when GPUs work together: a card slower than its peers, a slow path
// between two GPUs. Both are invisible to NVML and nvidia-smi; only measurements reveal them.
#include <fmt/format.h>

#include "backends/sim/fault_params.hpp"
#include "backends/sim/fault_registry.hpp"

namespace gpuvet::sim {
namespace {

std::optional<core::Error> straggler(SimState& state, const FaultSpec& fault) {
  Params params(fault, {"gpu", "factor"}, {});
  if (params.error()) return params.error();
  const int g = gpu_param(state, params);
  if (params.error()) return params.error();
  const double factor = number_param(params, "factor", 0.01, 1.0, "a share of its peers' speed");
  if (params.error()) return params.error();
  state.gpus[static_cast<std::size_t>(g)].straggler_factor = factor;
  return std::nullopt;
}

std::optional<core::Error> slow_link(SimState& state, const FaultSpec& fault) {
  Params params(fault, {"a", "b", "factor"}, {});
  if (params.error()) return params.error();
  const int last = static_cast<int>(state.gpus.size()) - 1;
  const int a = params.integer("a", 0, last, "this profile has GPUs");
  if (params.error()) return params.error();
  const int b = params.integer("b", 0, last, "this profile has GPUs");
  if (params.error()) return params.error();
  if (a == b) return params.fail("a and b name the same GPU: a link joins two GPUs");
  for (const int g : {a, b}) {
    if (!state.gpus[static_cast<std::size_t>(g)].present) {
      return params.fail(fmt::format("GPU {} was already removed by a gpu-missing fault", g));
    }
  }
  const double factor = number_param(params, "factor", 0.01, 1.0, "a share of the link's speed");
  if (params.error()) return params.error();
  state.slow_links.push_back({std::min(a, b), std::max(a, b), factor});
  return std::nullopt;
}

}  // namespace

std::vector<FaultDef> collective_fault_defs() {
  return {
      {"straggler", "straggler:gpu=N,factor=F",
       "GPU N works at F (0.01-1) of its peers' speed: its GEMMs, SM-driven copies and collective kernels are slower, "
       "while NVML shows a healthy card.",
       straggler},
      {"slow-link", "slow-link:a=I,b=J,factor=F",
       "The path between GPUs I and J carries F (0.01-1) of its bandwidth (a marginal cable or "
       "switch port): copies between them and collectives that cross it slow down.",
       slow_link},
  };
}

}  // namespace gpuvet::sim
