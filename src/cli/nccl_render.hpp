// gpuvet nccl's glue between the collective probe and the judge: backend ordinals <-> machine
// GPU indices, the probe's runs as the judge's inputs, and the nccl-tests style text tables.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "analysis/collective_attribution.hpp"
#include "analysis/collective_envelope.hpp"
#include "cli/app.hpp"
#include "core/assessment.hpp"
#include "core/verdict.hpp"
#include "core/collective.hpp"
#include "core/machine.hpp"
#include "probes/collective_probe.hpp"
#include "probes/gpu_ordinals.hpp"

namespace gpuvet::cli {

using OrdinalMap = probes::OrdinalMap;

struct NcclResults {
  std::string backend;  // CollectiveBackend::describe()
  bool simulated = false;
  std::vector<probes::CollectiveMeasurement> sweeps;
  std::vector<probes::ScalingMeasurement> scaling;
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

// Runs the envelope judges: every sweep, and each scaling run's all-GPU run; sources name
// machine GPU indices.
std::vector<core::CollectiveRun> judged_runs(const NcclResults& results, const OrdinalMap& map);
// The algorithm each of judged_runs was forced to (NVLS on/off), in the same order.
std::vector<analysis::CollectiveAlgorithm> judged_algorithms(const NcclResults& results);
std::vector<analysis::HangObservation> hang_observations(const NcclResults& results, const OrdinalMap& map,
                                                         double timeout_s);
analysis::ScalingObservation scaling_observation(const probes::ScalingMeasurement& scaling, const OrdinalMap& map);

// nccl-tests style tables (one per sweep) and the per-set busbw of scaling runs.
std::string render_nccl_tables(const NcclResults& results, const OrdinalMap& map, const core::Machine& machine);
// The tables of sweeps across nodes (GPU numbers are each node's ordinals as `map` names them).
std::string render_cross_node_tables(const std::vector<probes::CollectiveMeasurement>& sweeps, const OrdinalMap& map);

}  // namespace gpuvet::cli
