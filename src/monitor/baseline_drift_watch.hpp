// baseline_drift in the daemon (`gpuvet monitor --baseline BUNDLE_DIR`): each GPU under load
// (utilization at least analysis::kBaselineBusyUtilPct) against the steady state of the acceptance
// burn-in it passed, over a bounded window of minute means: hotter by kBaselineHotterC (warn,
// twice that fail) or at an SM clock kBaselineClockShare lower (warn, three times fail), the
// limits `gpuvet trend --baseline` judges with (analysis/baseline_drift.hpp). Per GPU a fixed ring
// of minute buckets: memory does not grow with uptime. Part of the alert evaluator's state.
#pragma once

#include <cstdint>
#include <map>
#include <vector>

#include "core/telemetry.hpp"
#include "core/trend.hpp"
#include "monitor/alert_windows.hpp"
#include "monitor/monitor_snapshot.hpp"

namespace gpuvet::monitor {

struct BaselineDriftLimits {
  double window_s = static_cast<double>(kBaselineDriftWindow.count());     // minute means over this window
  double min_busy_s = static_cast<double>(kBaselineDriftMinBusy.count());  // under load for at least this much of it
  double busy_util_pct;        // the shared limits (analysis/baseline_drift.hpp), set by the constructor
  double hotter_c;
  double clock_share;
  BaselineDriftLimits();
};

class BaselineDriftWatch {
 public:
  BaselineDriftWatch(core::TrendBaseline baseline, BaselineDriftLimits limits = {});
  void on_sample(const core::TelemetrySample& sample);
  // Re-judges every GPU at run time t_s (wall clock unix_ms) over the window ending there.
  void end_tick(double t_s, std::int64_t unix_ms);
  // The GPU's baseline_drift alerts (temperature and clock apart), if any fire.
  void alerts_for(int gpu, std::vector<MonitorAlert>& out) const;
  [[nodiscard]] std::size_t retained_objects() const;

 private:
  struct Bucket {
    std::int64_t minute = -1;
    double util_sum = 0, temp_sum = 0, clock_sum = 0;
    std::size_t util_n = 0, temp_n = 0, clock_n = 0;
  };
  struct Drift {
    core::Severity severity = core::Severity::info;
    double now = 0, then = 0, busy_s = 0;
    std::int64_t since_ms = 0;   // first tick at this severity or above warn
  };
  struct Gpu {
    core::TrendBaselineGpu baseline;
    std::vector<Bucket> ring;
    Drift hotter, slower;
  };
  void judge(Gpu& g, double t_s, std::int64_t unix_ms) const;

  core::TrendBaseline baseline_;
  BaselineDriftLimits limits_;
  std::map<int, Gpu> gpus_;  // the GPUs the bundle has burn-in results for
};

}  // namespace gpuvet::monitor
