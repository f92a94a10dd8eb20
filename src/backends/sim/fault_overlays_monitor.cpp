// Fault overlays that develop over days of production load, for `gpuvet monitor --sim`: a card
// whose utilization lags its peers' (it waits on a slower path or a mixed-batch peer) and a card
// that runs a little hotter every day. They plant state read by the burn-in model
// (burnin_model.cpp); the idle machine shows nothing.
#include <fmt/format.h>

#include "backends/sim/fault_params.hpp"
#include "backends/sim/fault_registry.hpp"

namespace gpuvet::sim {
namespace {

// util-lag:gpu=N[,factor=F][,start=T]
std::optional<core::Error> util_lag(SimState& state, const FaultSpec& fault) {
  Params params(fault, {"gpu"}, {"factor", "start"});
  if (params.error()) return params.error();
  const int g = gpu_param(state, params);
  if (params.error()) return params.error();
  const double factor = params.has("factor") ? number_param(params, "factor", 0.0, 1.0, "a share of the peers' utilization") : 0.6;
  const double start = params.has("start") ? duration_param(params, "start") : 0.0;
  if (params.error()) return params.error();
  SimBurninFaults& f = state.gpus[static_cast<std::size_t>(g)].burnin;
  f.util_factor = factor;
  f.util_lag_at_s = start;
  return std::nullopt;
}

// temp-drift:gpu=N,per_day=C
std::optional<core::Error> temp_drift(SimGpu& gpu, Params& params) {
  const double per_day = number_param(params, "per_day", 0.01, 20, "°C per day");
  if (params.error()) return params.error();
  gpu.burnin.temp_drift_c_per_day += per_day;
  return std::nullopt;
}

}  // namespace

std::vector<FaultDef> monitor_fault_defs() {
  return {
      {"util-lag", "util-lag:gpu=N[,factor=F][,start=T]",
       "From run time T (default 0) GPU N's utilization under load is F (default 0.6) times its peers': it waits "
       "on a slower path or a mixed-batch peer. Clocks, power and temperature stay healthy.",
       util_lag},
      {"temp-drift", "temp-drift:gpu=N,per_day=C",
       "GPU N runs C °C hotter each day at the same load (a fan wearing out, a filter clogging), until its "
       "maximum operating temperature makes the driver lower its clocks.",
       gpu_fault({"per_day"}, temp_drift)},
  };
}

}  // namespace gpuvet::sim
