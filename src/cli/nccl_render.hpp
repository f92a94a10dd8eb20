// gpuvet nccl's glue between the collective probe and the judge: backend ordinals <-> machine
// GPU indices, the probe's runs as the judge's inputs, and the nccl-tests style text tables.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "analysis/collective_attribution.hpp"
#include "cli/app.hpp"
#include "core/assessment.hpp"
#include "core/verdict.hpp"
#include "core/collective.hpp"
#include "core/machine.hpp"
#include "probes/collective_probe.hpp"

namespace gpuvet::cli {

// Machine GPU index (nvidia-smi numbering) <-> backend ordinal (CUDA numbering).
struct OrdinalMap {
  std::map<int, int> ordinal_of;  // index -> ordinal
  std::map<int, int> index_of;    // ordinal -> index
  [[nodiscard]] std::vector<int> ordinals(const std::vector<int>& indices) const;
  [[nodiscard]] std::vector<int> indices(const std::vector<int>& ordinals) const;
};

struct NcclResults {
  std::string backend;  // CollectiveBackend::describe()
  bool simulated = false;
  std::vector<probes::CollectiveMeasurement> sweeps;
  std::vector<probes::ScalingMeasurement> scaling;
};

// One node measured and judged: what gpuvet nccl renders, or sends to rank 0 under mpirun.
struct NodeOutcome {
  core::Machine machine;
  core::Assessment assessment;
  core::Verdict verdict = core::Verdict::pass;
  NcclResults results;
  OrdinalMap map;
};

// Under mpirun/srun with several ranks (nccl_cluster.cpp): every rank measures its node with
// `measure(rank)`, rank 0 gathers the reports and prints the cluster's; every rank returns the
// cluster's exit code.
core::Result<core::ExitCode> run_nccl_cluster(const std::function<core::Result<NodeOutcome>(int)>& measure, bool json,
                                              Streams& streams);

// Runs the envelope judges: every sweep, and each scaling run's all-GPU run; sources name
// machine GPU indices.
std::vector<core::CollectiveRun> judged_runs(const NcclResults& results, const OrdinalMap& map);
std::vector<analysis::HangObservation> hang_observations(const NcclResults& results, const OrdinalMap& map,
                                                         double timeout_s);
analysis::ScalingObservation scaling_observation(const probes::ScalingMeasurement& scaling, const OrdinalMap& map);

// nccl-tests style tables (one per sweep) and the per-set busbw of scaling runs.
std::string render_nccl_tables(const NcclResults& results, const OrdinalMap& map, const core::Machine& machine);

}  // namespace gpuvet::cli
