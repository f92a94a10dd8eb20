// Collective judging beyond plain runs (called by gpuvet nccl): runs with the algorithm forced
// (the NVLS on/off comparison, each judged against its own envelope) and cross-node runs judged
// against the NICs between the nodes. Pure; findings as judge_collectives (analysis/judge.hpp).
#pragma once

#include <vector>

#include "analysis/collective_envelope.hpp"
#include "core/assessment.hpp"
#include "core/collective.hpp"
#include "core/machine.hpp"

namespace gpuvet::analysis {

// judge_collectives with `algorithms[i]` the algorithm run i was forced to (nccl_default where
// the vector is shorter than `runs`).
void judge_collectives(const std::vector<core::CollectiveRun>& runs, const std::vector<CollectiveAlgorithm>& algorithms,
                       const core::Machine& machine, const core::Catalog& catalog, core::Assessment& assessment);

// Why NVLS cannot run on `ranks` GPUs of `machine` (empty when it can), from the interconnect the
// judge found (judge_machine's assessment.interconnect): the NVLS on/off comparison runs only
// where NVLS exists.
std::string nvls_unsupported(const core::Machine& machine, int ranks, const core::Catalog& catalog,
                             const core::InterconnectSummary& interconnect);

// Runs spanning every node (run.nodes > 1; `local_ranks` GPUs per node), judged on rank 0 with
// `node` = one node's machine (the nodes are alike, or node_inventory_mismatch says otherwise)
// and `networks` = every node's NICs. busbw_below_expected names the nodes whose NICs carry less
// than most nodes' in its evidence.
void judge_cross_node_collectives(const std::vector<core::CollectiveRun>& runs, int local_ranks, const core::Machine& node,
                                  const std::vector<NodeNetwork>& networks, const core::Catalog& catalog,
                                  core::Assessment& assessment);

}  // namespace gpuvet::analysis
