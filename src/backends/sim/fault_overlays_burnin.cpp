// Fault overlays that show up only in a burn-in, under hours of load: a card whose cooling fails,
// an Xid at a given time, an NVLink whose CRC errors keep growing, corrected ECC errors, a GPU that
// falls off the bus. They plant state read by the burn-in model (burnin_model.cpp); NVML and
// nvidia-smi of the idle machine show nothing.
#include <fmt/format.h>

#include <algorithm>

#include "backends/sim/fault_params.hpp"
#include "backends/sim/fault_registry.hpp"

namespace gpuvet::sim {
namespace {

// When a planted event strikes, in run seconds; the earliest of several stands.
void earliest(std::optional<double>& slot, double at_s) { slot = slot ? std::min(*slot, at_s) : at_s; }

// The faults that strike one GPU from run time T on (gpu=N,at=T): they differ only in what they plant.
FaultApply from_time(void (*plant)(SimBurninFaults& faults, double at_s)) {
  return gpu_fault({"at"}, [plant](SimGpu& gpu, Params& params) -> std::optional<core::Error> {
    const double at = duration_param(params, "at");
    if (params.error()) return params.error();
    plant(gpu.burnin, at);
    return std::nullopt;
  });
}

void thermal_throttle(SimBurninFaults& faults, double at_s) { faults.throttle_at_s = at_s; }
void gpu_lost(SimBurninFaults& faults, double at_s) { earliest(faults.lost_at_s, at_s); }
void gemm_miscompare(SimBurninFaults& faults, double at_s) { faults.miscompare_at_s = at_s; }

std::optional<core::Error> xid(SimGpu& gpu, Params& params) {
  const int code = params.integer("code", 1, 1000, "Xid codes are");
  const double at = duration_param(params, "at");
  if (params.error()) return params.error();
  gpu.burnin.xids.emplace_back(at, code);
  if (code == 79) earliest(gpu.burnin.lost_at_s, at);  // Xid 79: fallen off the bus, as gpu-lost
  return std::nullopt;
}

// nvlink-crc:gpu=N,link=L,per_min=R[,at=T]: `at` (default 0) is when the link starts to fail.
std::optional<core::Error> nvlink_crc(SimState& state, const FaultSpec& fault) {
  Params params(fault, {"gpu", "link", "per_min"}, {"at"});
  if (params.error()) return params.error();
  const int g = gpu_param(state, params);
  if (params.error()) return params.error();
  SimGpu& gpu = state.gpus[static_cast<std::size_t>(g)];
  if (gpu.ports.empty()) return params.fail(gpu.model->display_name + " has no NVLink ports");
  const int link = params.integer("link", 0, static_cast<int>(gpu.ports.size()) - 1, "this GPU has links");
  if (params.error()) return params.error();
  if (!gpu.ports[static_cast<std::size_t>(link)].active) {
    return params.fail(fmt::format("link {} is not active: an inactive link counts no errors", link));
  }
  const double per_min = number_param(params, "per_min", 0.001, 1e6, "CRC errors per minute");
  const double at = params.has("at") ? duration_param(params, "at") : 0.0;
  if (params.error()) return params.error();
  gpu.burnin.nvlink_crc.push_back({link, per_min, at});
  return std::nullopt;
}

std::optional<core::Error> ecc_sbe(SimGpu& gpu, Params& params) {
  const double per_hour = number_param(params, "per_hour", 0.001, 1e7, "corrected ECC errors per hour");
  if (params.error()) return params.error();
  gpu.burnin.ecc_sbe_per_hour += per_hour;
  return std::nullopt;
}

}  // namespace

std::vector<FaultDef> burnin_fault_defs() {
  return {
      {"thermal-throttle", "thermal-throttle:gpu=N,at=T",
       "From run time T (90s, 15m, 2h) GPU N's cooling fails: under load it heats up to its maximum operating "
       "temperature and the driver lowers its clocks (software thermal slowdown) to stay there.",
       from_time(thermal_throttle)},
      {"xid", "xid:gpu=N,code=C,at=T",
       "GPU N reports Xid C at run time T (an NVML XidCriticalError event). Xid 79 also makes it fall off the bus.",
       gpu_fault({"code", "at"}, xid)},
      {"nvlink-crc", "nvlink-crc:gpu=N,link=L,per_min=R[,at=T]",
       "NVLink L of GPU N counts R flow-control CRC errors per minute while the link carries traffic (a marginal "
       "link or connector), from run time T on (default: from the start); its replay counter grows with them. "
       "A GEMM-only burn-in leaves the link idle: it shows under burnin --traffic and a production job's "
       "collectives (monitor).",
       nvlink_crc},
      {"ecc-sbe", "ecc-sbe:gpu=N,per_hour=R",
       "GPU N's memory reports R corrected (single-bit) ECC errors per hour under load.",
       gpu_fault({"per_hour"}, ecc_sbe)},
      {"gpu-lost", "gpu-lost:gpu=N,at=T",
       "GPU N falls off the bus at run time T (Xid 79): every NVML call on it fails from then on and its "
       "load stops.",
       from_time(gpu_lost)},
      {"gemm-miscompare", "gemm-miscompare:gpu=N,at=T",
       "From run time T GPU N's GEMMs under load return wrong results: one result in the checks of every minute of "
       "load differs from the reference, while NVML shows a healthy card.",
       from_time(gemm_miscompare)},
  };
}

}  // namespace gpuvet::sim
