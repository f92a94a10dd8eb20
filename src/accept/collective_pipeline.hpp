// Collectives, observed and judged in one place for `gpuvet nccl` and the accept collective
// stage: the probe's measurements become named runs judged against the envelope (each with the
// NVLS setting it was forced to), every hang becomes collective_hung, and scaling runs are
// attributed to the GPU or link their slow sets share. What the caller then does differs: nccl
// renders the tables and the report, accept decides its clauses (collective_stage.cpp). Pure
// apart from observe_collective_sweep, which runs the probe on the calling thread.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "analysis/collective_attribution.hpp"
#include "analysis/collective_envelope.hpp"
#include "backends/api/collective_backend.hpp"
#include "core/assessment.hpp"
#include "core/collective.hpp"
#include "core/gpu_model.hpp"
#include "core/machine.hpp"
#include "probes/collective_probe.hpp"
#include "probes/gpu_ordinals.hpp"

namespace gpuvet::accept {

// What the probe measured: size sweeps, each judged against its envelope, and scaling runs
// (every set watched for hangs, the all-GPU run judged, the sets compared for attribution).
struct CollectiveObservation {
  std::vector<probes::CollectiveMeasurement> sweeps;
  std::vector<probes::ScalingMeasurement> scaling;
};

// How a run is named in its findings and summaries, from its measurement and the machine GPU
// indices it ran on, e.g. "gpuvet nccl, GPUs 0-7, simulated".
using CollectiveRunNamer = std::function<std::string(const probes::CollectiveMeasurement&, const std::vector<int>& indices)>;

// What the judge needs besides the measurements.
struct CollectiveJudgeContext {
  const core::Machine& machine;
  const core::Catalog& catalog;
  core::InterconnectSummary interconnect;  // judge_machine's view of the fabric: the envelope and NVLS
  const probes::OrdinalMap& map;           // backend ordinals <-> machine GPU indices
  double timeout_s = 120;                  // the probe's per-sample timeout, named in collective_hung
  CollectiveRunNamer name_run;
};

// The runs the envelope judges read, in order: every sweep, then each scaling run's all-GPU run;
// named by `name_run`, with the "# Avg bus bandwidth" gpuvet prints as their printed average.
std::vector<core::CollectiveRun> enveloped_runs(const CollectiveObservation& observation, const probes::OrdinalMap& map,
                                                const CollectiveRunNamer& name_run);
// The algorithm each of enveloped_runs was forced to (NVLS on: nvls, off: ring, unset: NCCL's).
std::vector<analysis::CollectiveAlgorithm> enveloped_algorithms(const CollectiveObservation& observation);
// Every hang of every measurement, in machine GPU indices.
std::vector<analysis::HangObservation> hang_observations(const CollectiveObservation& observation,
                                                         const probes::OrdinalMap& map, double timeout_s);
// A scaling run's sets with the busbw of their largest size, in machine GPU indices.
analysis::ScalingObservation scaling_observation(const probes::ScalingMeasurement& scaling, const probes::OrdinalMap& map);

// Judges `observation` into `assessment` (whose interconnect the caller set or leaves to ctx):
// a CollectiveSummary per enveloped run with busbw_below_expected / collective_wrong_results /
// collective_not_judged, then collective_hung per hang, then the attribution of each scaling run.
void judge_collective_observation(const CollectiveObservation& observation, const CollectiveJudgeContext& ctx,
                                  core::Assessment& assessment);

// One sweep on `gpus` (machine indices) measured and judged on its own: `judged` holds its
// summary and findings only.
struct JudgedCollectiveSweep {
  CollectiveObservation observation;
  core::Assessment judged;
};

core::Result<JudgedCollectiveSweep> observe_collective_sweep(api::CollectiveBackend& backend, const std::vector<int>& gpus,
                                                             const probes::CollectiveProbeOptions& options,
                                                             const CollectiveJudgeContext& ctx);

}  // namespace gpuvet::accept
