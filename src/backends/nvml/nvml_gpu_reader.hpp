// Per-GPU reads: identity, memory, PCIe, affinity, limits, modes, health and NVLink ports.
// Internal to the NVML backend; called by read_machine for each device handle.
#pragma once

#include <vector>

#include "backends/nvml/nvml_device.hpp"
#include "core/machine.hpp"

namespace gpuvet::nvml {

// Every core::Gpu field NVML can give. Fields it cannot give are absent with a reason.
core::Gpu read_gpu(DeviceReader& reader);

// NVLink ports: count from field 91 when available, else probe until INVALID_ARGUMENT or
// NOT_SUPPORTED. Uses the Hopper per-link fields (165 state, 164 speed, scopeId = link) when the
// GPU's compute capability is 9.0 or newer.
core::Reading<std::vector<core::NvLinkPort>> read_nvlinks(DeviceReader& reader,
                                                          const core::Reading<std::string>& compute_capability);

}  // namespace gpuvet::nvml
