// The collective judge step shared by gpuvet nccl and the accept collective stage.
#include "accept/collective_pipeline.hpp"

#include "analysis/collective_judge.hpp"

namespace gpuvet::accept {
namespace {

core::Reading<double> largest_size_busbw(const probes::CollectiveMeasurement& m) {
  if (m.run.rows.empty()) return core::Reading<double>::absent("not run");
  return m.run.rows.back().out_of_place.busbw_gbps;
}

}  // namespace

std::vector<core::CollectiveRun> enveloped_runs(const CollectiveObservation& observation, const probes::OrdinalMap& map,
                                                const CollectiveRunNamer& name_run) {
  std::vector<core::CollectiveRun> out;
  auto add = [&](const probes::CollectiveMeasurement& m) {
    core::CollectiveRun run = m.run;
    run.source = name_run(m, map.indices(m.gpus));
    run.printed_avg_busbw_gbps = core::average_busbw_gbps(run);  // the "# Avg bus bandwidth" line gpuvet prints
    out.push_back(std::move(run));
  };
  for (const auto& m : observation.sweeps) add(m);
  for (const auto& s : observation.scaling) {
    if (s.all) add(*s.all);
  }
  return out;
}

std::vector<analysis::CollectiveAlgorithm> enveloped_algorithms(const CollectiveObservation& observation) {
  std::vector<analysis::CollectiveAlgorithm> out;
  for (const auto& m : observation.sweeps) {
    out.push_back(!m.nvls   ? analysis::CollectiveAlgorithm::nccl_default
                  : *m.nvls ? analysis::CollectiveAlgorithm::nvls
                            : analysis::CollectiveAlgorithm::ring);
  }
  for (const auto& s : observation.scaling) {
    if (s.all) out.push_back(analysis::CollectiveAlgorithm::nccl_default);
  }
  return out;
}

std::vector<analysis::HangObservation> hang_observations(const CollectiveObservation& observation,
                                                         const probes::OrdinalMap& map, double timeout_s) {
  std::vector<analysis::HangObservation> out;
  auto add = [&](const probes::CollectiveMeasurement& m) {
    if (!m.hang) return;
    out.push_back({m.hang->op, map.indices(m.hang->gpus), m.hang->size_bytes, map.indices(m.hang->pending_gpus),
                   m.hang->detail, timeout_s});
  };
  for (const auto& m : observation.sweeps) add(m);
  for (const auto& s : observation.scaling) {
    for (const auto& m : s.pairs) add(m);
    for (const auto& m : s.subsets) add(m);
    if (s.all) add(*s.all);
  }
  return out;
}

analysis::ScalingObservation scaling_observation(const probes::ScalingMeasurement& s, const probes::OrdinalMap& map) {
  analysis::ScalingObservation obs;
  obs.op = std::string(api::to_string(s.op));
  obs.size_bytes = s.bytes;
  for (const auto& m : s.pairs) obs.pairs.push_back({map.indices(m.gpus), largest_size_busbw(m)});
  for (const auto& m : s.subsets) obs.subsets.push_back({map.indices(m.gpus), largest_size_busbw(m)});
  if (s.all) obs.all = analysis::SubsetBusbw{map.indices(s.all->gpus), largest_size_busbw(*s.all)};
  return obs;
}

void judge_collective_observation(const CollectiveObservation& observation, const CollectiveJudgeContext& ctx,
                                  core::Assessment& assessment) {
  analysis::judge_collectives(enveloped_runs(observation, ctx.map, ctx.name_run), enveloped_algorithms(observation),
                              ctx.machine, ctx.catalog, assessment);
  for (auto& f : analysis::judge_hangs(hang_observations(observation, ctx.map, ctx.timeout_s))) {
    assessment.findings.push_back(std::move(f));
  }
  for (const auto& s : observation.scaling) {
    for (auto& f : analysis::attribute_scaling(scaling_observation(s, ctx.map), ctx.machine)) {
      assessment.findings.push_back(std::move(f));
    }
  }
}

core::Result<JudgedCollectiveSweep> observe_collective_sweep(api::CollectiveBackend& backend, const std::vector<int>& gpus,
                                                             const probes::CollectiveProbeOptions& options,
                                                             const CollectiveJudgeContext& ctx) {
  auto runs = probes::sweep_collectives(backend, ctx.map.ordinals(gpus), options);
  if (!runs) return runs.error();
  JudgedCollectiveSweep out{{std::move(runs).value(), {}}, {}};
  out.judged.interconnect = ctx.interconnect;
  judge_collective_observation(out.observation, ctx, out.judged);
  return out;
}

}  // namespace gpuvet::accept
