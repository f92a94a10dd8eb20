// The monitor's alert rules, evaluated as the samples arrive. The GPU's health (Xid, lost GPUs,
// ECC, NVLink and PCIe counters, PCIe links below their maximum, row remaps and retired pages,
// throttling other than the power cap) is the one health judge's (analysis/health), asked what
// fires now: the same rules, limits, codes and severities as the burn-in report, `report --db`
// and `trend`. Beside it, the rules that compare a GPU with its peers: utilization_below_peers
// over a sliding window, hotter/slower_than_peers (peer_standing_watch: the trend judge's rule),
// and with a baseline bundle baseline_drift. Next steps come from the finding catalogue
// (docs/findings.md). Streaming and bounded: per GPU a fixed number of time buckets and one state
// per rule, so memory does not grow with uptime. Called by the daemon's sampling thread only.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <vector>

#include "analysis/health/health_limits.hpp"
#include "analysis/utilization_peers.hpp"
#include "core/telemetry.hpp"
#include "monitor/alert_windows.hpp"
#include "monitor/baseline_drift_watch.hpp"
#include "monitor/monitor_snapshot.hpp"

namespace gpuvet::monitor {

// Documented in docs/monitor.md "Alert rules".
struct AlertThresholds {
  double util_window_s = static_cast<double>(kUtilizationWindow.count());  // utilization compared over this window
  double util_below_share = analysis::kUtilBelowPeersShare;  // below (1 - share) x the group's mean utilization
  double busy_util_pct = analysis::kUtilGroupBusyPct;  // the group is busy when its mean utilization is at least this
  analysis::health::HealthLimits health;  // the health judge's limits (DCGM's rates, held times, windows)
  double interval_s = 1;              // the sampling interval: held times and hotter/slower_than_peers count with it
};

class AlertEvaluator {
 public:
  AlertEvaluator(std::vector<core::BurninGpu> gpus, AlertThresholds thresholds = {});
  ~AlertEvaluator();
  AlertEvaluator(const AlertEvaluator&) = delete;
  AlertEvaluator& operator=(const AlertEvaluator&) = delete;

  // `gpuvet monitor --baseline`: also judge each GPU against its acceptance burn-in (baseline_drift).
  void set_baseline(core::TrendBaseline baseline, BaselineDriftLimits limits = {});

  // The samples of one tick (t_s non-decreasing across calls), then its events, then end_tick.
  void on_sample(const core::TelemetrySample& sample);
  // The same, with the caller's judgement of whether the GPU answers (the daemon knows which
  // readings the GPU cannot report at all) and, if not, why: gpu_lost names that reason.
  void on_sample(const core::TelemetrySample& sample, bool answers, const std::string& silence);
  void on_event(const core::TelemetryEvent& event, std::int64_t unix_ms);
  // Closes the tick at run time t_s (wall clock unix_ms): evaluates the rules over the windows.
  void end_tick(double t_s, std::int64_t unix_ms);
  // What fires now, in a stable order (code, then GPUs).
  [[nodiscard]] std::vector<MonitorAlert> active() const;
  // Objects the evaluator holds (buckets, rule states, Xid entries): bounded, for the memory test.
  [[nodiscard]] std::size_t retained_objects() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace gpuvet::monitor
