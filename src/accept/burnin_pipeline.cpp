// run_soak: the store, then the runner. judge_stored: one streaming pass into judge and counters.
#include "accept/burnin_pipeline.hpp"

namespace gpuvet::accept {

core::Result<SoakRun> run_soak(SoakSetup setup, api::TelemetrySource& telemetry, api::StressBackend& stress,
                               api::TrafficBackend* traffic) {
  if (setup.plan.traffic.on() && traffic == nullptr) {
    return core::environment_error("link traffic beside the load needs a traffic backend, and this gpuvet has none for "
                                   "this machine (the CUDA/NCCL one is not built yet); run the burn-in without traffic");
  }
  core::BurninRunInfo& run = setup.run;
  run.traffic = setup.plan.traffic;
  run.interval_s = setup.plan.interval_s;
  run.planned_duration_s = setup.plan.duration_s;
  run.started_unix_ms = setup.clock->unix_ms();
  run.stress_backend = stress.describe();
  run.telemetry_source = telemetry.describe();
  auto store = telemetry::TelemetryStore::create(setup.db_path, run, setup.gpus, *setup.wall);
  if (!store) return store.error();
  auto outcome =
      probes::run_burnin(setup.plan, telemetry, stress, *store.value(), *setup.clock, setup.observer, setup.cancel, traffic);
  if (!outcome) return outcome.error().with_context("burn-in");
  return SoakRun{std::move(store).value(), std::move(outcome).value()};
}

core::Result<StoredJudgement> judge_stored(const StoredRead& read, const analysis::BurninThresholds& thresholds,
                                           bool soak_totals) {
  std::unique_ptr<analysis::BurninJudge> judge;
  std::optional<analysis::SoakCounter> soak;
  auto stored = read(
      [&](const core::BurninRecord& header) {
        judge = std::make_unique<analysis::BurninJudge>(header.run, header.gpus, thresholds);
        if (soak_totals) soak.emplace(header.run.interval_s);
        for (const auto& interval : header.traffic) judge->on_traffic(interval);
        for (const auto& e : header.events) {
          judge->on_event(e);
          if (soak) soak->on_event(e);
        }
      },
      [&](const core::TelemetrySample& s) {
        judge->on_sample(s);
        if (soak) soak->on_sample(s);
      });
  if (!stored) return stored.error();
  if (!judge) return core::internal_error("the stored run was read without its header");
  StoredJudgement out{std::move(stored).value(), {}, {}};
  out.assessment = judge->finish(out.record.run.status);
  if (soak) out.totals = soak->finish(out.record.gpus);
  return out;
}

}  // namespace gpuvet::accept
