// Fault overlays that show up in burnin.
#include "backends/sim/fault_params.hpp"
#include "backends/sim/fault_registry.hpp"

namespace gpuvet::sim {

std::vector<FaultDef> burnin_fault_defs() { return {}; }

}  // namespace gpuvet::sim
