// gpuvet nccl's results (one node measured and judged), the names its runs carry into the judge,
// and the tables' model the report renders (report/nccl_text.hpp); the judge step is the
// collective pipeline's (accept/collective_pipeline.hpp), shared with the accept collective stage.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "accept/collective_pipeline.hpp"
#include "cli/app.hpp"
#include "core/assessment.hpp"
#include "core/verdict.hpp"
#include "core/collective.hpp"
#include "core/machine.hpp"
#include "probes/collective_probe.hpp"
#include "probes/gpu_ordinals.hpp"
#include "report/nccl_text.hpp"

namespace gpuvet::cli {

using OrdinalMap = probes::OrdinalMap;

// What one node measured (sweeps, scaling runs) and with what.
struct NcclResults : accept::CollectiveObservation {
  std::string backend;  // CollectiveBackend::describe()
  bool simulated = false;
  std::vector<std::string> notes;  // what was asked for and not run, with why (e.g. NVLS unsupported)
};

// One node measured and judged: what gpuvet nccl renders, or sends to rank 0 under mpirun.
struct NodeOutcome {
  core::Machine machine;
  core::Assessment assessment;
  core::Verdict verdict = core::Verdict::pass;
  NcclResults results;
  OrdinalMap map;
  // Kept for the collectives across nodes that follow under mpirun: the backend and the
  // selected GPUs as its ordinals.
  std::shared_ptr<api::CollectiveBackend> backend;
  std::vector<int> ordinals;
};

// The collectives across every node (one process each, joined by `group`), run after every node
// measured itself: all ranks call it together with their own node.
using CrossNodeSweep = std::function<core::Result<std::vector<probes::CollectiveMeasurement>>(NodeOutcome& node,
                                                                                              api::ProcessGroup& group)>;

// Under mpirun/srun with several ranks (nccl_cluster.cpp): every rank measures its node with
// `measure(rank)`, rank 0 gathers the reports; when every node measured, all ranks run `across`
// together and rank 0 judges it against the nodes' NICs, then prints the cluster's report;
// every rank returns the cluster's exit code.
core::Result<core::ExitCode> run_nccl_cluster(const std::function<core::Result<NodeOutcome>(int)>& measure,
                                              const CrossNodeSweep& across, bool json, Streams& streams);

// How gpuvet nccl names a run in its findings: "gpuvet nccl, GPUs 0-7, NVLS off (...), simulated",
// or "gpuvet nccl across 2 nodes, GPUs 0-7 of each".
accept::CollectiveRunNamer nccl_run_namer(bool simulated);

// What report::render_nccl_tables shows of `results`: GPUs as machine indices.
report::NcclTables nccl_tables(const NcclResults& results, const OrdinalMap& map);
// The sweeps across nodes for report::render_nccl_sweeps (GPU numbers are each node's ordinals as
// `map` names them).
std::vector<report::NcclSweep> nccl_sweeps(const std::vector<probes::CollectiveMeasurement>& sweeps, const OrdinalMap& map);

}  // namespace gpuvet::cli
