// Fault overlays that only measurements reveal: peer access switched off, memory that is not
// all there, memory that does not hold its bits. NVML and nvidia-smi look healthy.
#include <fmt/format.h>

#include "backends/sim/fault_params.hpp"
#include "backends/sim/fault_registry.hpp"

namespace gpuvet::sim {
namespace {

std::optional<core::Error> p2p_disabled(SimGpu& gpu, Params&) {
  gpu.p2p_disabled = true;
  return std::nullopt;
}

double reported_gib(const SimGpu& gpu) { return static_cast<double>(gpu.memory_total_mib) / 1024.0; }

std::optional<core::Error> vram_short(SimGpu& gpu, Params& params) {
  const double gib = number_param(params, "gib", 0.5, reported_gib(gpu), "GiB this GPU really has, up to what it reports:");
  if (params.error()) return params.error();
  gpu.vram_real_gib = gib;
  return std::nullopt;
}

std::optional<core::Error> vram_bad(SimGpu& gpu, Params& params) {
  const double offset = number_param(params, "offset_gib", 0, reported_gib(gpu) - 1, "an offset in GiB inside the GPU's memory:");
  if (params.error()) return params.error();
  gpu.vram_bad_offsets_gib.push_back(offset);
  return std::nullopt;
}

}  // namespace

std::vector<FaultDef> link_fault_defs() {
  return {
      {"p2p-disabled", "p2p-disabled:gpu=N",
       "GPU N cannot use peer-to-peer access (P2P off in the driver, ACS or IOMMU in the way): peer "
       "copies to and from it are staged through host memory.",
       gpu_fault({}, p2p_disabled)},
      {"vram-short", "vram-short:gpu=N,gib=G",
       "GPU N reports its full memory but only G GiB of it can be allocated and used (what a "
       "relabelled or defective card looks like to a VRAM check).",
       gpu_fault({"gib"}, vram_short)},
      {"vram-bad", "vram-bad:gpu=N,offset_gib=O",
       "GPU N has a bad region at O GiB into its memory: words written there read back wrong "
       "(repeatable: several regions).",
       gpu_fault({"offset_gib"}, vram_bad)},
  };
}

}  // namespace gpuvet::sim
