// The burn-in runner: starts the GEMM load on every chosen GPU (and, with traffic, the link
// traffic beside it), samples each GPU's telemetry at an interval on the calling thread (the
// sampling thread) and writes every sample, event and traffic interval to the store as it
// arrives, stops the load on a GPU that nears its shutdown temperature or falls off the bus
// (Xid 79) while the rest keep going, and reports progress. It observes and records; it never
// judges (analysis/burnin_* does, from the store). Time comes from the injected clock: a
// ManualClock runs a simulated burn-in in virtual time.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "backends/api/stress_backend.hpp"
#include "backends/api/telemetry_source.hpp"
#include "backends/api/traffic_backend.hpp"
#include "core/error.hpp"
#include "core/telemetry.hpp"
#include "platform/clock.hpp"
#include "telemetry/telemetry_store.hpp"

namespace gpuvet::probes {

struct BurninPlan {
  double duration_s = 4 * 3600.0;
  double interval_s = 1.0;
  std::vector<int> gpus;              // run indices; the source's GPUs, all of them when empty
  api::StressConfig stress;
  double shutdown_margin_c = 2.0;     // stop a GPU this close to its shutdown temperature
  // Link traffic beside the load (settings.on()): polled every settings.interval_s, each interval
  // stored with every GPU's cross-check GEMM digest. Off: the GEMM load alone, as before.
  core::TrafficSettings traffic;
};

// Live view of one tick, for progress output.
struct BurninTick {
  double t_s = 0;
  double duration_s = 0;
  const std::vector<core::TelemetrySample>* latest = nullptr;  // last sample per chosen GPU
  const std::vector<int>* stopped = nullptr;                     // GPUs whose load was stopped
};

class BurninObserver {
 public:
  virtual ~BurninObserver() = default;
  virtual void on_tick(const BurninTick& tick) = 0;
  virtual void on_event(const core::TelemetryEvent& event) = 0;
  virtual void on_finish(const BurninTick& tick) = 0;
};

struct BurninOutcome {
  core::BurninStatus status = core::BurninStatus::completed;
  double ended_t_s = 0;
  std::size_t samples = 0;
  std::vector<int> stopped;          // GPUs stopped early (safety or lost)
};

// Runs the plan; the store already holds the run and its GPUs. `traffic` is needed when the plan
// asks for traffic (a usage error otherwise). `cancel` (may be null) ends the run early as
// interrupted. Errors are tool errors (the store could not be written, the traffic could not
// start); what the GPUs do is recorded, never returned as an error.
core::Result<BurninOutcome> run_burnin(const BurninPlan& plan, api::TelemetrySource& source,
                                       api::StressBackend& stress, telemetry::TelemetryStore& store,
                                       platform::Clock& clock, BurninObserver* observer = nullptr,
                                       const std::atomic<bool>* cancel = nullptr, api::TrafficBackend* traffic = nullptr);

}  // namespace gpuvet::probes
