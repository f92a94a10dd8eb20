// The monitor's alert rules, evaluated as the samples arrive: a GPU whose utilization stays below
// its group's (utilization_below_peers), NVLink error counters that grow (nvlink_errors_growing),
// Xid events with NVIDIA's action (xid_event), uncorrectable ECC growth (ecc_errors_new), row
// remaps and page retirements pending (row_remap_pending, retired_pages), PCIe replays above
// DCGM's rate (pcie_replays), clocks held back by anything but the power cap (throttle_reasons)
// and a GPU lost (gpu_lost); a PCIe link below its maximum (pcie_link_degraded: width at any
// load, generation only while the GPU is busy, since idle GPUs lower it to save power), a row
// remap that failed (row_remap_failure) and remapped rows growing (remapped_rows_growing), and with a baseline
// bundle a GPU drifted from its acceptance burn-in (baseline_drift). Codes and next steps come from the finding catalogue
// (docs/findings.md). Pure and streaming: per GPU a fixed number of time buckets and one state per
// counter, so memory does not grow with uptime. Called by the daemon's sampling thread only.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <vector>

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
  double counter_window_s = static_cast<double>(kCounterWindow.count());  // a counter alert holds while the counter rose within this window
  double nvlink_crc_per_s = 100;      // DCGM's limit: fail from this CRC rate (warn below)
  double pcie_replays_per_min = 8;    // DCGM's limit: alert above this rate over the window
  double throttle_min_s = 30;         // a throttle reason must hold this long
  double xid_hold_s = 3600;           // an Xid alert stays up this long after the last one
  double pcie_degraded_min_s = 60;    // a PCIe link below its maximum must hold this long (gen: under load)
  double interval_s = 1;              // the sampling interval: hotter/slower_than_peers count sampled time with it
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
  // Objects the evaluator holds (buckets, counter states, Xid entries): bounded, for the memory test.
  [[nodiscard]] std::size_t retained_objects() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace gpuvet::monitor
