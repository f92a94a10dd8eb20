// Fault overlays: each edits the simulator state the way the real defect would show up to NVML,
// sysfs and nvidia-smi. Parameters are validated here; errors are usage errors naming the fault.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "backends/sim/fault_params.hpp"
#include "backends/sim/fault_registry.hpp"

namespace gpuvet::sim {
namespace {

std::optional<core::Error> nvlink_down(SimState& state, const FaultSpec& fault) {
  Params params(fault, {"gpu", "link"}, {});
  if (params.error()) return params.error();
  const int g = gpu_param(state, params);
  if (params.error()) return params.error();
  SimGpu& gpu = state.gpus[static_cast<std::size_t>(g)];
  if (gpu.ports.empty()) return params.fail(gpu.model->display_name + " has no NVLink ports");
  const int link = params.integer("link", 0, static_cast<int>(gpu.ports.size()) - 1, "this GPU has links");
  if (params.error()) return params.error();
  SimPort& port = gpu.ports[static_cast<std::size_t>(link)];
  if (!port.connected) return params.fail(fmt::format("link {} of GPU {} is not connected to anything", link, fault.params[0].second));
  port.active = false;
  // A direct link is one cable: both ends go down together.
  if (port.remote == core::NvLinkRemote::gpu) {
    state.gpus[static_cast<std::size_t>(port.peer_gpu)].ports[static_cast<std::size_t>(port.peer_port)].active = false;
  }
  return std::nullopt;
}

std::optional<core::Error> pcie_degraded(SimState& state, const FaultSpec& fault) {
  Params params(fault, {"gpu"}, {"gen", "width", "at"});
  if (params.error()) return params.error();
  const int g = gpu_param(state, params);
  if (params.error()) return params.error();
  SimGpu& gpu = state.gpus[static_cast<std::size_t>(g)];
  const int max_gen = gpu.model->pcie_gen;
  const int max_width = gpu.model->pcie_width;
  int gen = gpu.pcie_gen_current;
  int width = gpu.pcie_width_current;
  if (params.has("gen")) gen = params.integer("gen", 1, max_gen, "this GPU supports Gen");
  if (params.error()) return params.error();
  if (params.has("width")) width = params.integer("width", 1, max_width, "this GPU supports width x");
  if (params.error()) return params.error();
  if (width != 1 && width != 2 && width != 4 && width != 8 && width != 16) {
    return params.fail(fmt::format("width={} is not a PCIe link width (1, 2, 4, 8, 16)", width));
  }
  if (!params.has("gen") && !params.has("width")) gen = std::max(1, max_gen - 1);
  if (gen == max_gen && width == max_width) return params.fail("gen and width equal the maximum: nothing is degraded");
  if (params.has("at")) {
    // Downtrained in production: the inventory shows the link as trained at start.
    gpu.burnin.pcie_degraded_at_s = duration_param(params, "at");
    if (params.error()) return params.error();
    gpu.burnin.pcie_degraded_gen = gen;
    gpu.burnin.pcie_degraded_width = width;
    return std::nullopt;
  }
  gpu.pcie_gen_current = gen;
  gpu.pcie_width_current = width;
  return std::nullopt;
}

std::optional<core::Error> mixed_batch(SimState& state, const FaultSpec& fault) {
  Params params(fault, {"gpu"}, {"vbios", "part", "memory_gib"});
  if (params.error()) return params.error();
  if (!params.has("vbios") && !params.has("part") && !params.has("memory_gib")) {
    return params.fail("give at least one of vbios, part, memory_gib");
  }
  const int g = gpu_param(state, params);
  if (params.error()) return params.error();
  SimGpu& gpu = state.gpus[static_cast<std::size_t>(g)];
  if (params.has("memory_gib")) {
    const int gib = params.integer("memory_gib", 1, 4096, "memory in GiB");
    if (params.error()) return params.error();
    // Scale like the healthy card: an 80 GB H100 reports 81559 MiB, so 94 GB reports ~95831 MiB.
    const core::GpuModel& m = *gpu.model;
    gpu.memory_total_mib = m.memory_reported_mib.known()
                               ? static_cast<std::uint64_t>(std::llround(static_cast<double>(*m.memory_reported_mib) * gib / m.memory_gib))
                               : static_cast<std::uint64_t>(gib) * 1024;
  }
  if (params.has("vbios")) gpu.vbios = params.text("vbios");
  if (params.has("part")) gpu.board_part_number = params.text("part");
  return std::nullopt;
}

std::optional<core::Error> gpu_missing(SimState& state, const FaultSpec& fault) {
  Params params(fault, {"gpu"}, {});
  if (params.error()) return params.error();
  const int g = gpu_param(state, params);
  if (params.error()) return params.error();
  SimGpu& gpu = state.gpus[static_cast<std::size_t>(g)];
  gpu.present = false;
  state.notes.push_back(fmt::format("GPU at 0000:{:02x}:00.0 is on the PCI bus but not enumerated by the driver "
                                    "(attached_gpus counts it; the remaining GPUs are renumbered)",
                                    gpu.pci_bus));
  return std::nullopt;
}

std::optional<core::Error> numa_misplaced(SimState& state, const FaultSpec& fault) {
  Params params(fault, {"gpu", "node"}, {});
  if (params.error()) return params.error();
  const int g = gpu_param(state, params);
  if (params.error()) return params.error();
  const int node = params.integer("node", 0, 1 << 20, "NUMA node");
  if (params.error()) return params.error();
  bool exists = false;
  std::string ids;
  for (const auto& n : state.profile.numa_nodes) {
    exists = exists || n.id == node;
    ids += (ids.empty() ? "" : ", ") + std::to_string(n.id);
  }
  if (!exists) return params.fail(fmt::format("node={} does not exist (NUMA nodes: {})", node, ids));
  state.gpus[static_cast<std::size_t>(g)].numa_override = node;
  return std::nullopt;
}

}  // namespace

std::vector<FaultDef> machine_fault_defs() {
  return {
      {"nvlink-down", "nvlink-down:gpu=N,link=L",
       "NVLink port L of GPU N is inactive; the pair(s) it served lose one link in the topology "
       "(on NVSwitch machines every pair of GPU N drops by one, NV18 -> NV17 on H100).",
       nvlink_down},
      {"pcie-degraded", "pcie-degraded:gpu=N[,gen=G][,width=W][,at=T]",
       "GPU N trains its PCIe link below its maximum: current gen G (default max-1) and/or width W "
       "(default unchanged); the maximum stays as it was. With at=T (burn-in, monitor) the link "
       "runs at its maximum and downtrains at run time T; the inventory shows it as it started.",
       pcie_degraded},
      {"mixed-batch", "mixed-batch:gpu=N[,vbios=V][,part=P][,memory_gib=M]",
       "GPU N comes from another batch: its VBIOS, board part number and/or memory total differ "
       "(at least one key).",
       mixed_batch},
      {"gpu-missing", "gpu-missing:gpu=N",
       "GPU N is on the PCI bus but NVML does not enumerate it: it vanishes from the GPU list, "
       "topology and NIC proximity, the rest are renumbered as NVML would, attached_gpus keeps the full "
       "count. In every fault, gpu=N is the profile's GPU N, before any renumbering.",
       gpu_missing},
      {"numa-misplaced", "numa-misplaced:gpu=N,node=K",
       "GPU N reports NUMA node K and that node's CPUs while its PCIe placement stays where it is "
       "(wrong affinity: host copies cross the socket link).",
       numa_misplaced},
  };
}

}  // namespace gpuvet::sim
