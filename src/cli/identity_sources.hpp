// Where `accept` learns what it accepted: the machine picture's GPUs, driver and CUDA version,
// then the host's software: kernel, OS and fabric manager from files (platform/host_software),
// NCCL and cuBLAS from the libraries found (their version queries only), the CUDA toolkit
// gpuvet's kernels were built with. With --sim the simulator profile states them (simulated).
#pragma once

#include <string>
#include <vector>

#include "core/machine.hpp"
#include "core/machine_identity.hpp"

namespace gpuvet::cli {

// sim_profile empty: the live host under sysfs_root. Never fails: what cannot be read is absent
// with its reason.
core::MachineIdentity gather_identity(const core::Machine& machine, const std::string& sim_profile,
                                      const std::string& sysfs_root);

}  // namespace gpuvet::cli
