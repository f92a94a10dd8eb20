// Fault overlays that show up in copy and memory measurements.
#include "backends/sim/fault_params.hpp"
#include "backends/sim/fault_registry.hpp"

namespace gpuvet::sim {

std::vector<FaultDef> link_fault_defs() { return {}; }

}  // namespace gpuvet::sim
