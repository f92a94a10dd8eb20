// The accept stage that burns the GPUs in for the spec's duration (GEMM load through an
// api::StressBackend, telemetry through an api::TelemetrySource, every sample stored as it
// arrives) and decides the burnin clause from what the store holds: the burn-in judge's
// failures, and the spec's tolerances for throttling, ECC, Xid and NVLink errors.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <string>

#include "accept/stage.hpp"
#include "backends/api/stress_backend.hpp"
#include "backends/api/telemetry_source.hpp"
#include "backends/api/traffic_backend.hpp"
#include "core/error.hpp"
#include "platform/clock.hpp"
#include "probes/burnin_runner.hpp"

namespace gpuvet::accept {

struct BurninStageSetup {
  std::unique_ptr<api::TelemetrySource> telemetry;
  std::unique_ptr<api::StressBackend> stress;
  std::unique_ptr<api::TrafficBackend> traffic;  // for the spec's burnin.traffic; null: none on this machine
  // Run time (a ManualClock in simulation: hours pass in seconds) and the wall clock that paces
  // the store's commits.
  std::unique_ptr<platform::Clock> clock;
  std::unique_ptr<platform::Clock> wall;
  // Where the telemetry database goes, asked for when the stage starts (the CLI makes room in the
  // evidence bundle, keeping an interrupted attempt's database); ":memory:" without a bundle.
  std::function<core::Result<std::string>()> db_path;
  core::BurninRunInfo run;                      // source, hostname, dtype, faults; the stage fills the plan
  double interval_s = 1.0;
  probes::BurninObserver* observer = nullptr;   // live progress (the CLI's, on stderr)
  const std::atomic<bool>* cancel = nullptr;    // set by SIGINT/SIGTERM: the stage ends not run
  // Called when the soak starts; what it returns lives until the soak ends (the CLI's handler that
  // turns SIGINT/SIGTERM into `cancel`). Empty: nothing.
  std::function<std::shared_ptr<void>()> guard_interrupts;
};

std::unique_ptr<Stage> make_burnin_stage(BurninStageSetup setup);

}  // namespace gpuvet::accept
