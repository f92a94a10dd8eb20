// The burn-in, observed and judged in one place for `gpuvet burnin`, `gpuvet report --db` and the
// accept stage: run_soak loads the GPUs and writes every sample to the store as it arrives;
// judge_stored reads a stored run back once, sample by sample, into the streaming judge and the
// spec's counters (never the whole series in memory). Rendering and clause decisions stay with
// the callers. Runs on the calling thread.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "analysis/burnin_judge.hpp"
#include "analysis/soak_totals.hpp"
#include "backends/api/stress_backend.hpp"
#include "backends/api/telemetry_source.hpp"
#include "backends/api/traffic_backend.hpp"
#include "core/telemetry.hpp"
#include "platform/clock.hpp"
#include "probes/burnin_runner.hpp"
#include "telemetry/telemetry_store.hpp"

namespace gpuvet::accept {

struct SoakSetup {
  probes::BurninPlan plan;
  core::BurninRunInfo run;  // source, hostname, dtype, faults; run_soak fills the plan and backends
  std::vector<core::BurninGpu> gpus;
  std::string db_path;      // ":memory:" keeps the samples in memory only
  platform::Clock* clock = nullptr;  // run time (virtual in simulation)
  platform::Clock* wall = nullptr;   // paces the store's commits
  probes::BurninObserver* observer = nullptr;
  const std::atomic<bool>* cancel = nullptr;
};

struct SoakRun {
  std::unique_ptr<telemetry::TelemetryStore> store;
  probes::BurninOutcome outcome;
};

// `traffic` runs the plan's link traffic (plan.traffic.on()); a plan with traffic and no backend
// is an environment error (this machine has no traffic backend).
core::Result<SoakRun> run_soak(SoakSetup setup, api::TelemetrySource& telemetry, api::StressBackend& stress,
                               api::TrafficBackend* traffic = nullptr);

// How a stored run is read: telemetry::read_burnin of a file, or a store's read_back.
using StoredRead = std::function<core::Result<core::BurninRecord>(const telemetry::HeaderSink&, const telemetry::SampleSink&)>;

struct StoredJudgement {
  core::BurninRecord record;          // header, GPUs, events, unsupported fields (no samples)
  core::BurninAssessment assessment;  // the burn-in judge's findings
  // Throttled share, ECC, Xid and NVLink totals for a spec's tolerances; only when asked for (the
  // counters cost about as much as the judge per sample, and only accept reads them).
  std::optional<analysis::SoakTotals> totals;
};

core::Result<StoredJudgement> judge_stored(const StoredRead& read, const analysis::BurninThresholds& thresholds = {},
                                           bool soak_totals = false);

}  // namespace gpuvet::accept
