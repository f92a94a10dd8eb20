// Adds what sysfs knows to a machine read from another source (NVML on a live host).
#pragma once

#include "core/machine.hpp"
#include "platform/fs_root.hpp"

namespace gpuvet::sysfs {

// Called once by the live probe after NVML filled `machine`; never overwrites a known value.
// - GPUs matched by normalised PCI bus id: numa_node, cpu_affinity and PCIe gen/width are filled
//   only where the machine's reading is absent.
// - nics (with gpu_proximity by GPU position, via pcie_path) and numa_nodes: set when absent.
// - links: when absent, built from pcie_path for every GPU pair (left absent, with the reason,
//   if any pair cannot be placed); a known matrix, NV# cells included, is left as it is.
// - attached_gpus: set from list_gpus when absent and the PCI bus is visible.
// - every NVIDIA GPU on the PCI bus that the machine lacks gets a notes entry naming its bus id.
void enrich_machine(const platform::FsRoot& root, core::Machine& machine);

}  // namespace gpuvet::sysfs
