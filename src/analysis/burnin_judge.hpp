// The burn-in judge: a run's samples and events -> findings, what could not be verified, and a
// per-GPU summary. Streaming: BurninJudge is fed one sample at a time and keeps per-GPU running
// state (exact value distributions, counter growth, first/last times), never the series, so a
// 72 h run or a months-long monitor costs the same memory as a 4 h one. `gpuvet burnin`,
// `gpuvet report --db` and the accept burn-in stage all feed it from the store, so a report
// rebuilt later is the same report. Pure: no I/O.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "analysis/health/health_limits.hpp"
#include "core/finding.hpp"
#include "core/telemetry.hpp"

namespace gpuvet::analysis {

// Tolerances; defaults are documented in docs/findings.md and docs/measurement.md.
struct BurninThresholds {
  double straggler_tolerance = 0.10;     // TFLOP/s below the peers' median by more than this share
  double clock_desync_share = 0.05;      // SM clock below the tick's median by more than this share
  double clock_desync_min_s = 30;        // ... for at least this long
  double thermal_outlier_c = 10;         // median temperature above the peers' median by this much
  double power_reached_share = 0.90;     // median power under load below this share of the limit
  double warmup_s = 300;                 // left out of steady-state statistics (capped at 10 % of the run)
  double busbw_hot_min_share = 0.90;     // collective busbw at steady state at least this share of the cold interval's
  health::HealthLimits health;           // the health judge's (DCGM's NVLink and PCIe limits, held times)
};

using BurninGpuSummary = core::BurninGpuSummary;
using BurninAssessment = core::BurninAssessment;

class BurninJudge {
 public:
  // `run` gives the interval and planned duration (the warm-up is a share of it); `gpus` the GPUs
  // the run should have watched and their limits.
  BurninJudge(core::BurninRunInfo run, std::vector<core::BurninGpu> gpus, BurninThresholds thresholds = {});
  ~BurninJudge();
  BurninJudge(const BurninJudge&) = delete;
  BurninJudge& operator=(const BurninJudge&) = delete;

  // Times as UTC dates from the run's start and findings worded for a period, not a burn-in
  // (gpuvet trend). A monitor's history (no planned duration: is_monitor_history) gets this by
  // itself, and its steady state is the samples under load by utilization (no GEMM of its own).
  void use_wall_clock() { wall_clock_ = true; }

  // Samples in time order (t_s not decreasing; any GPU order within a tick), as the store gives
  // them back. Events in any order relative to samples, in time order among themselves.
  void on_sample(const core::TelemetrySample& sample);
  void on_event(const core::TelemetryEvent& event);
  // The link traffic's intervals, in time order, before the samples (the store gives them with the
  // run's header). A monitor's history has none.
  void on_traffic(const core::TrafficInterval& interval);
  // Judges what was seen; `status` is how the run ended (running: killed or still going).
  // Can be called more than once (a monitor's periodic verdict); the state is not changed.
  [[nodiscard]] BurninAssessment finish(core::BurninStatus status) const;

 private:
  struct State;
  std::unique_ptr<State> state_;
  bool wall_clock_ = false;
};

// Under load in a monitor's history: utilization at least this (analysis/baseline_drift.hpp's
// "under load"), for the steady-state medians and the rules that read them.
inline constexpr double kMonitorLoadedUtilPct = 80;
// A burn-in always plans its duration; the monitor daemon's history has none.
inline bool is_monitor_history(const core::BurninRunInfo& run) { return !(run.planned_duration_s > 0); }

// A whole record at once (tests, small runs): samples are fed in time order (stable).
BurninAssessment judge_burnin(const core::BurninRecord& record, const BurninThresholds& thresholds = {});

}  // namespace gpuvet::analysis
