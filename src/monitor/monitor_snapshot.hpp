// What the monitor daemon knows right now, published by the sampling loop after every tick and
// read by the HTTP endpoint (/metrics, /alerts, /healthz). The sampler builds a new snapshot and
// swaps it in whole (SnapshotBoard), so a slow or hostile HTTP client never holds up sampling and
// never sees half a tick. Memory: one snapshot per GPU set, whatever the uptime.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "core/finding.hpp"
#include "core/telemetry.hpp"
#include "core/trend.hpp"

namespace gpuvet::monitor {

// One alert that fires now: a finding code from the catalogue (docs/findings.md) and since when.
struct MonitorAlert {
  std::string code;                  // "utilization_below_peers", "nvlink_errors_growing", ...
  core::Severity severity = core::Severity::warn;
  std::vector<int> gpus;             // GPU indices it names (may be empty: machine-wide)
  std::int64_t since_unix_ms = 0;    // first tick the condition held
  std::string message;               // one line an operator understands
  std::string next_step;
  std::vector<std::pair<std::string, std::string>> evidence;
};

// One GPU as last sampled.
struct GpuNow {
  core::BurninGpu gpu;               // index, name, UUID, bus id, limits
  bool lost = false;                 // fell off the bus / stopped answering
  bool has_sample = false;           // false until the first sample of this GPU
  core::TelemetrySample latest;      // readings absent where unsupported or unread
  // Wall time (Unix ms; virtual under --sim) of the last sample it answered, kept once it is lost
  // (so a dashboard shows since when); 0 while it has not answered since the daemon started.
  std::int64_t last_answered_unix_ms = 0;
  std::uint64_t xid_total = 0;       // Xid events seen since the daemon started
  int last_xid = 0;                  // most recent Xid code (0: none)
  // False when probe() found Xid events unsupported (no NVML event set) or the GPU is missing:
  // xid_total and last_xid then know nothing and are not exported (absent, not 0).
  bool xid_watched = true;
  // --baseline: the GPU's steady state in the acceptance burn-in (exported as gpuvet_baseline_*);
  // absent without --baseline or when the bundle has no burn-in results for this GPU.
  std::optional<core::TrendBaselineGpu> baseline;
};

// The daemon's own cost, exported as metrics.
struct DaemonCost {
  double last_tick_duration_s = 0;   // wall time the last tick's sampling of all GPUs took
  std::uint64_t ticks_total = 0;
  std::uint64_t samples_total = 0;   // GPU-samples taken
  std::uint64_t samples_dropped_total = 0;  // ticks skipped because the previous ran late
  std::uint64_t source_errors_total = 0;    // NVML (or simulator) calls that failed or timed out
  std::uint64_t store_errors_total = 0;     // history writes that failed
  double uptime_s = 0;
};

struct MonitorSnapshot {
  std::string hostname;
  std::string source;                // TelemetrySource::describe()
  bool simulated = false;
  double interval_s = 1.0;
  std::int64_t taken_unix_ms = 0;    // wall clock (virtual in simulation) of the last tick
  bool healthy = false;              // sampling is running and the last tick was on time
  std::string health_reason;         // why not healthy (empty when healthy)
  std::vector<GpuNow> gpus;
  std::vector<MonitorAlert> alerts;  // what fires now
  DaemonCost cost;
};

// Single-writer, many-reader exchange of the latest snapshot.
class SnapshotBoard {
 public:
  void publish(MonitorSnapshot snapshot) {
    auto next = std::make_shared<const MonitorSnapshot>(std::move(snapshot));
    std::lock_guard lock(mutex_);
    current_ = std::move(next);
  }
  // Null until the first publish.
  [[nodiscard]] std::shared_ptr<const MonitorSnapshot> current() const {
    std::lock_guard lock(mutex_);
    return current_;
  }

 private:
  mutable std::mutex mutex_;
  std::shared_ptr<const MonitorSnapshot> current_;
};

}  // namespace gpuvet::monitor
