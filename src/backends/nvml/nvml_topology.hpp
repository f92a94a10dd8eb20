// The GPU x GPU link matrix as nvidia-smi topo -m prints it, built from NVLink ports already read
// plus a PCIe-path lookup for pairs without NVLink. Pure given its inputs, so it is unit-tested
// without a library; read_machine passes nvmlDeviceGetTopologyCommonAncestor as the lookup.
#pragma once

#include <functional>
#include <vector>

#include "core/machine.hpp"

namespace gpuvet::nvml {

// PCIe path between the GPUs at positions a and b of the gpus vector, or why it is unknown.
using PciePathLookup = std::function<core::Reading<core::LinkKind>(int a, int b)>;

// NV# = active links from one GPU whose remote bus id is the peer (the smaller of the two sides'
// counts when both see links); when both GPUs reach NVSwitches, NV# = the smaller of their
// active switch-link counts (what topo -m prints on HGX boards). Other pairs use `pcie_path`.
// Absent when any pair cannot be decided; the reason names the pair.
core::Reading<core::LinkMatrix> build_link_matrix(const std::vector<core::Gpu>& gpus, const PciePathLookup& pcie_path);

// True when any active port reaches an NVSwitch; false when every GPU's ports are known and none
// does (a GPU whose NVLink is "not supported" has none); absent otherwise.
core::Reading<bool> nvswitch_present(const std::vector<core::Gpu>& gpus);

}  // namespace gpuvet::nvml
