// The machine's topology as `nvidia-smi topo -m` prints it (GPU and NIC rows, CPU and NUMA
// affinity, legend), for the evidence bundle's topology.txt. Pure.
#pragma once

#include <string>

#include "core/machine.hpp"

namespace gpuvet::report {

std::string render_topology_text(const core::Machine& machine);

}  // namespace gpuvet::report
