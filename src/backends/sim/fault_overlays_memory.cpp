// Fault overlays for the memory and PCIe health counters the monitor watches: an uncorrectable ECC
// error (with the Xids and the row remap or page retirement the driver does for it), a row remap
// that fails, and a PCIe link that keeps replaying packets. They plant times and rates read by the
// burn-in model (burnin_model.cpp); the idle machine's nvidia-smi shows nothing.
#include <fmt/format.h>

#include "backends/sim/fault_params.hpp"
#include "backends/sim/fault_registry.hpp"

namespace gpuvet::sim {
namespace {

bool has_ecc(const core::GpuModel& model) {
  return model.card_class == core::CardClass::training || model.card_class == core::CardClass::inference;
}

// ecc-dbe:gpu=N,at=T. From Ampere on the driver reports a contained memory error (Xid 94) and
// remaps the row (Xid 63; pending until the GPU is reset); before Ampere it reports a double-bit
// ECC error (Xid 48) and retires the page (pending until the driver reloads). NVIDIA's Xid
// catalogue: 48 double-bit ECC, 63 row-remap event, 94 contained memory error.
std::optional<core::Error> ecc_dbe(SimGpu& gpu, Params& params) {
  const double at = duration_param(params, "at");
  if (params.error()) return params.error();
  if (!has_ecc(*gpu.model)) return params.fail(gpu.model->display_name + " has no ECC memory");
  gpu.burnin.ecc_dbe_at_s.push_back(at);
  if (uses_row_remapping(*gpu.model)) {
    gpu.burnin.xids.emplace_back(at, 94);
    gpu.burnin.xids.emplace_back(at, 63);
  } else {
    gpu.burnin.xids.emplace_back(at, 48);
  }
  return std::nullopt;
}

// row-remap-failure:gpu=N,at=T: the remap after an uncorrectable error finds no spare row (Xid 64).
std::optional<core::Error> row_remap_failure(SimGpu& gpu, Params& params) {
  const double at = duration_param(params, "at");
  if (params.error()) return params.error();
  if (!uses_row_remapping(*gpu.model)) {
    return params.fail(gpu.model->display_name + " retires pages instead of remapping rows (row remapping is Ampere and newer)");
  }
  gpu.burnin.remap_failure_at_s = gpu.burnin.remap_failure_at_s ? std::min(*gpu.burnin.remap_failure_at_s, at) : at;
  gpu.burnin.xids.emplace_back(at, 64);
  return std::nullopt;
}

// pcie-replay:gpu=N,per_min=R[,at=T]
std::optional<core::Error> pcie_replay(SimState& state, const FaultSpec& fault) {
  Params params(fault, {"gpu", "per_min"}, {"at"});
  if (params.error()) return params.error();
  const int g = gpu_param(state, params);
  if (params.error()) return params.error();
  const double per_min = number_param(params, "per_min", 0.001, 1e7, "PCIe replays per minute");
  const double at = params.has("at") ? duration_param(params, "at") : 0.0;
  if (params.error()) return params.error();
  SimBurninFaults& f = state.gpus[static_cast<std::size_t>(g)].burnin;
  f.pcie_replays_per_min += per_min;
  f.pcie_replays_at_s = at;
  return std::nullopt;
}

}  // namespace

std::vector<FaultDef> memory_fault_defs() {
  return {
      {"ecc-dbe", "ecc-dbe:gpu=N,at=T",
       "GPU N's memory has an uncorrectable ECC error at run time T (repeatable). Ampere and newer report Xid 94 "
       "and 63 and remap the row (remap pending until a GPU reset); older GPUs report Xid 48 and retire the page "
       "(pending until the driver reloads).",
       gpu_fault({"at"}, ecc_dbe)},
      {"row-remap-failure", "row-remap-failure:gpu=N,at=T",
       "At run time T a row remap of GPU N fails (no spare row left; Xid 64): the card needs NVIDIA support. "
       "Ampere and newer only.",
       gpu_fault({"at"}, row_remap_failure)},
      {"pcie-replay", "pcie-replay:gpu=N,per_min=R[,at=T]",
       "GPU N's PCIe link replays R packets per minute under load (a marginal riser, cable or slot), from run "
       "time T on (default: from the start).",
       pcie_replay},
  };
}

}  // namespace gpuvet::sim
