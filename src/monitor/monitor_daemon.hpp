// The monitor's sampling loop: every interval it samples every GPU through the burn-in's
// TelemetrySource (NVML live, the simulator with --sim), appends the samples and events to the
// telemetry store (batched commits, pruned to the retention), feeds the alert evaluator and
// publishes a MonitorSnapshot on the SnapshotBoard for the HTTP endpoint. A GPU that is lost or a
// reading that fails is reported (gpu_lost, DaemonCost::source_errors_total) and the others keep
// going; a lost GPU is asked again once a minute. A GPU of a reopened history that the source no
// longer lists (DaemonConfig::missing) is reported lost from the first tick. A live source is called through a
// DeadlineCaller: a GPU whose call does not return within call_deadline_s is reported lost
// (unresponsive) and not called again until that call returns. Runs on the caller's thread until the stop
// flag is set or the duration has passed. Memory: the latest sample per GPU and the evaluator's
// bounded windows; nothing grows with uptime.
#pragma once

#include <atomic>
#include <functional>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "backends/api/telemetry_source.hpp"
#include "core/error.hpp"
#include "monitor/alert_evaluator.hpp"
#include "monitor/deadline_caller.hpp"
#include "monitor/journal_log.hpp"
#include "monitor/lag_causes.hpp"
#include "monitor/monitor_snapshot.hpp"
#include "platform/clock.hpp"
#include "telemetry/telemetry_store.hpp"

namespace gpuvet::monitor {

struct DaemonConfig {
  std::string hostname;
  double interval_s = 1;
  double time_scale = 1;            // clock seconds per wall second (--speed; 1 live)
  double duration_s = 0;            // run time to stop after (0: until stopped)
  telemetry::Retention retention;
  double prune_every_s = 300;       // run time between prunes
  double lost_retry_s = 60;         // a lost GPU is sampled again this often
  double call_deadline_s = 2;       // live source: wall time a GPU's probe or sample may take
  AlertThresholds thresholds;
  std::optional<core::TrendBaseline> baseline;  // --baseline: the acceptance bundle's steady state (baseline_drift)
  // GPUs of the history (reopened --db) that the source does not list now, as the history knows
  // them: reported lost (gpu_lost naming UUID and index) from the first tick, never asked.
  std::vector<core::BurninGpu> missing;
  // Where `missing` is known from when not from a history continued: "the acceptance bundle DIR"
  // (a new --db numbered as the --baseline bundle). Empty: the history, missing since this restart.
  std::string missing_known_from;
  // The machine picture judged at start, per GPU (lag_causes.hpp): attached to utilization_below_peers.
  std::optional<LagCauses> lag_causes;
  std::string lag_causes_unavailable;  // why lag_causes is nullopt
  // Called on the daemon's thread with each snapshot it publishes and its run time (--record-series).
  std::function<void(double t_s, const MonitorSnapshot&)> on_publish;
};

struct DaemonSummary {
  std::uint64_t ticks = 0;
  std::uint64_t samples = 0;
  double first_t_s = 0, last_t_s = 0;  // run time of the first and last tick of this process
  std::size_t alerts_at_end = 0;
};

// Signals the loop reads between ticks (set from a signal watcher or a test).
struct DaemonSignals {
  const std::atomic<bool>* stop = nullptr;     // SIGTERM/SIGINT: finish the tick, flush, return
  std::atomic<bool>* status = nullptr;         // SIGHUP: log the state, ask lost GPUs again; cleared when handled
};

class MonitorDaemon {
 public:
  // `clock` paces the ticks and gives run time (virtual with --sim); `wall` measures the cost of a
  // tick. Run time t_s = (clock.unix_ms() - store.started_unix_ms()) / 1000, so a restarted
  // daemon continues the history where the wall clock is; the source is asked at t_s minus the
  // run time at which this process started (the simulator's model starts at 0).
  MonitorDaemon(api::TelemetrySource& source, telemetry::TelemetryStore& store, SnapshotBoard& board,
                platform::Clock& clock, platform::Clock& wall, JournalLog& log, DaemonConfig config);
  // Errors: the GPUs cannot be listed (environment), the store fails (the history cannot be kept).
  core::Result<DaemonSummary> run(DaemonSignals signals);

  [[nodiscard]] const AlertEvaluator* evaluator() const { return evaluator_.get(); }
  // Live source calls that passed their deadline and have not returned. When non-zero at exit,
  // the source must not be destroyed (a thread is still inside it): see monitor_command.cpp.
  [[nodiscard]] std::size_t hung_calls() const { return caller_ ? caller_->hung_calls() : 0; }

 private:
  std::optional<core::Error> tick(double t_s, std::int64_t unix_ms, double source_t, bool retry_lost);
  void publish(std::int64_t unix_ms, bool healthy, std::string reason);
  void log_alert_changes();
  // The source's answers, through caller_ for a live source; nullopt when the call did not return
  // within the deadline or an earlier call on the GPU still has not.
  std::optional<core::TelemetrySample> ask_sample(int gpu, double source_t);
  std::optional<std::vector<core::UnsupportedField>> ask_probe(int gpu);
  // Probes the GPU in `slot` and records what it cannot report; false when it did not answer.
  bool probe_slot(std::size_t slot, std::vector<core::UnsupportedField>& unsupported);
  // A GPU of the history the source does not list: an all-absent sample saying why.
  void record_missing(std::size_t slot, double t_s, std::int64_t unix_ms);

  api::TelemetrySource& source_;
  telemetry::TelemetryStore& store_;
  SnapshotBoard& board_;
  platform::Clock& clock_;
  platform::Clock& wall_;
  JournalLog& log_;
  DaemonConfig config_;
  std::vector<GpuNow> gpus_;
  std::vector<double> lost_asked_s_;
  std::vector<std::vector<std::string>> unsupported_;  // per GPU slot: fields probe() found unsupported
  std::vector<bool> needs_probe_;                       // per GPU slot: probe() has not answered yet
  std::vector<std::string> missing_;                    // per GPU slot: why it is missing (empty: listed)
  std::unique_ptr<DeadlineCaller> caller_;              // live sources only
  std::unique_ptr<AlertEvaluator> evaluator_;
  std::vector<MonitorAlert> alerts_;
  DaemonCost cost_;
  double segment_start_s_ = 0;
  double last_prune_s_ = 0;
  bool store_failing_ = false;
};

}  // namespace gpuvet::monitor
