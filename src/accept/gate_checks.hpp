// Decides the quick-gate clauses (inventory, topology, NUMA, memory) from the machine picture
// and the judge's findings. Pure. Internal to accept/.
#pragma once

#include "accept/stage.hpp"

namespace gpuvet::accept {

// Sets c.status, observed, reason, findings and measured/target for a clause of the inventory,
// topology, numa or memory stage. A clause it does not know stays not_run with a reason.
void decide_gate_clause(ClauseResult& c, const StageContext& ctx);

}  // namespace gpuvet::accept
