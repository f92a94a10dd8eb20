// The PCIe path between two PCI functions in nvidia-smi topo -m vocabulary (X, PIX, PXB, PHB,
// NODE, SYS), worked out from where the kernel places them in /sys/devices.
#pragma once

#include <string>
#include <string_view>

#include "core/reading.hpp"
#include "core/topology.hpp"
#include "platform/fs_root.hpp"

namespace gpuvet::sysfs {

// Pure classification from canonical sysfs paths ("/sys/devices/pci0000:17/0000:17:01.0/...").
// A PCIe switch shows up as an upstream-port bridge with one downstream-port bridge per child, so
// two devices below the same switch (common ancestor two levels up on both sides) count as one
// bridge, PIX, as nvidia-smi reports them; more levels are PXB. Same root complex (pciDDDD:BB)
// without a common bridge: PHB. Different root complexes: NODE when both NUMA nodes are known
// and equal (or unknown on a one-node machine: numa_node_count == 1), SYS when they differ.
core::Reading<core::Link> classify_pcie_path(std::string_view path_a, std::string_view path_b,
                                             const core::Reading<int>& numa_a,
                                             const core::Reading<int>& numa_b, int numa_node_count);

// The same for two bus ids, looked up under /sys/bus/pci/devices. Absent when a device is not
// found (or its link dangles), or when NUMA placement is needed and unknown.
core::Reading<core::Link> pcie_path(const platform::FsRoot& root, const std::string& bus_a,
                                    const std::string& bus_b);

}  // namespace gpuvet::sysfs
