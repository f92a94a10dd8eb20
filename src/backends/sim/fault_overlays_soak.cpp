// Fault overlays that show only in a soak with link traffic (gpuvet burnin --traffic): a card
// whose links slow as it heats, and a card that computes silently wrong results. They plant state
// read by the burn-in model (burnin_model.cpp) and the simulated traffic; NVML shows nothing, and
// the GEMM's own reference check passes (the wrong results are the same every time).
#include <fmt/format.h>

#include "backends/sim/fault_params.hpp"
#include "backends/sim/fault_registry.hpp"

namespace gpuvet::sim {
namespace {

// busbw-heat:gpu=N,per_c=P[,above_c=T]: the GPU's links lose P % of their speed per °C above T.
std::optional<core::Error> busbw_heat(SimState& state, const FaultSpec& fault) {
  Params params(fault, {"gpu", "per_c"}, {"above_c"});
  if (params.error()) return params.error();
  const int g = gpu_param(state, params);
  if (params.error()) return params.error();
  SimGpu& gpu = state.gpus[static_cast<std::size_t>(g)];
  const double per_c = number_param(params, "per_c", 0.01, 10, "percent of the link speed per °C");
  const double above = params.has("above_c") ? number_param(params, "above_c", 0, 100, "°C") : 45.0;
  if (params.error()) return params.error();
  if (gpu.ports.empty()) return params.fail(gpu.model->display_name + " has no NVLink ports: its collectives go over PCIe");
  gpu.burnin.busbw_per_c = per_c;
  gpu.burnin.busbw_above_c = above;
  return std::nullopt;
}

// sdc:gpu=N,at=T
std::optional<core::Error> sdc(SimGpu& gpu, Params& params) {
  const double at = duration_param(params, "at");
  if (params.error()) return params.error();
  gpu.burnin.sdc_at_s = at;
  return std::nullopt;
}

}  // namespace

std::vector<FaultDef> soak_fault_defs() {
  return {
      {"busbw-heat", "busbw-heat:gpu=N,per_c=P[,above_c=T]",
       "GPU N's NVLinks lose P % of their speed for every °C it runs above T (default 45 °C): cold, its collectives "
       "run at full speed; hot under the burn-in's load, the whole group's busbw falls to its pace while its GEMMs "
       "keep up. Shows with burnin --traffic.",
       busbw_heat},
      {"sdc", "sdc:gpu=N,at=T",
       "From run time T GPU N computes silently wrong results: its GEMMs return the same wrong answer every time (its "
       "own reference check passes) and its collective outputs hold wrong elements. Shows with burnin --traffic (the "
       "cross-GPU GEMM check and the collectives' #wrong).",
       gpu_fault({"at"}, sdc)},
  };
}

}  // namespace gpuvet::sim
