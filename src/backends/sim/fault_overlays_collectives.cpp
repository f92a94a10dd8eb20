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

std::optional<core::Error> collective_hang(SimGpu& gpu, Params& params) {
  const int mib = params.integer("from_mib", 0, 1 << 24, "a message size in MiB");
  if (params.error()) return params.error();
  gpu.collective_hang_bytes = static_cast<std::uint64_t>(mib) << 20;
  return std::nullopt;
}

std::optional<core::Error> collective_corrupt(SimGpu& gpu, Params& /*params*/) {
  gpu.collective_corrupts = true;
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
      {"collective-hang", "collective-hang:gpu=N,from_mib=M",
       "Collectives that include GPU N never complete from M MiB up (a wedged GPU or fabric port): the probe's "
       "timeout ends them and the run reports which GPUs and which size.",
       gpu_fault({"from_mib"}, collective_hang)},
      {"collective-corrupt", "collective-corrupt:gpu=N",
       "Collectives that include GPU N return wrong elements (its share of every result is corrupted), as "
       "nccl-tests' #wrong would count them.",
       gpu_fault({}, collective_corrupt)},
  };
}

}  // namespace gpuvet::sim
