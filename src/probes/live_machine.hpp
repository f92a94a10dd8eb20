// The machine gpuvet runs on: NVML for the GPUs and NVLink, sysfs for PCIe, NUMA and NICs.
#pragma once

#include <string>

#include "core/error.hpp"
#include "core/machine.hpp"
#include "platform/fs_root.hpp"

namespace gpuvet::probes {

struct LiveSources {
  platform::FsRoot sysfs_root{"/"};
  std::string nvml_library;  // soname or path of libnvidia-ml
};

// The NVML library to load: $GPUVET_NVML_LIBRARY, else libnvidia-ml.so.1.
std::string default_nvml_library();

// Errors are environment errors (no driver, no library, no permission). When NVML cannot be
// used but sysfs shows NVIDIA GPUs, the error says how many, so "driver missing" and
// "no GPU here" are told apart.
core::Result<core::Machine> read_live_machine(const LiveSources& sources);

}  // namespace gpuvet::probes
