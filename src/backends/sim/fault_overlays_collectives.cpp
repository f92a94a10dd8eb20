// Fault overlays that show up in collectives.
#include "backends/sim/fault_params.hpp"
#include "backends/sim/fault_registry.hpp"

namespace gpuvet::sim {

std::vector<FaultDef> collective_fault_defs() { return {}; }

}  // namespace gpuvet::sim
