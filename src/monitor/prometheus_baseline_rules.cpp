// baseline_drift as Prometheus rules over the gpuvet_baseline_* gauges that `gpuvet monitor
// --baseline BUNDLE_DIR` exports: the condition of the daemon's own evaluator
// (baseline_drift_watch), from the same limits (analysis/baseline_drift.hpp) and windows
// (alert_windows.hpp). Per GPU the minute means of the last hour; the minutes under load (mean
// utilization at least 80 %) must add up to 30 min; their median temperature and SM clock are held
// against the acceptance steady state. Subqueries step by the minute, as the daemon's buckets do.
#include <cmath>

#include <fmt/format.h>

#include "analysis/baseline_drift.hpp"
#include "core/finding_codes.hpp"
#include "monitor/alert_windows.hpp"
#include "monitor/prometheus_rule_parts.hpp"

namespace gpuvet::monitor {

PrometheusRuleGroup baseline_drift_rules(const Scaler& scale) {
  using core::Severity;
  const std::string minute = scale.range(kBaselineDriftBucket);
  const std::string over_window =
      "[" + prometheus_duration(scale(kBaselineDriftWindow)) + ":" + prometheus_duration(scale(kBaselineDriftBucket)) + "]";
  const std::string suffix = prometheus_duration(kBaselineDriftWindow);
  const std::string busy_minute = fmt::format("avg_over_time(gpuvet_gpu_utilization_ratio{}) >= {:g}", minute,
                                              analysis::kBaselineBusyUtilPct / 100);
  // Minutes under load needed in the window (30 of 60 at --speed 1), in scaled buckets.
  const auto min_busy = static_cast<long long>(std::ceil(static_cast<double>(scale(kBaselineDriftMinBusy).count()) /
                                                         static_cast<double>(scale(kBaselineDriftBucket).count())));
  const std::string busy_count = "gpu:gpuvet_gpu_busy_minutes:count" + suffix;
  const std::string temp_median = "gpu:gpuvet_gpu_temperature_celsius:busy_median" + suffix;
  const std::string clock_median = "gpu:gpuvet_sm_clock_hertz:busy_median" + suffix;
  const auto busy_median = [&](const char* metric) {
    return fmt::format("quantile_over_time(0.5,\n"
                       "  (avg_over_time({}{})\n"
                       "     and on (job, instance, gpu) ({}))\n"
                       "  {})",
                       metric, minute, busy_minute, over_window);
  };

  PrometheusRuleGroup g{"gpuvet-baseline", std::chrono::seconds(0), {}};
  g.rules.push_back(record(busy_count, fmt::format("count_over_time(({}){})", busy_minute, over_window)));
  g.rules.push_back(record(temp_median, busy_median("gpuvet_gpu_temperature_celsius")));
  g.rules.push_back(record(clock_median, busy_median("gpuvet_sm_clock_hertz")));

  // group_left (): one series per GPU on each side, but the result keeps the GPU's own labels
  // (uuid, model, ...) for Alertmanager; a plain `on` would keep only job, instance and gpu.
  const std::string enough_load = fmt::format("\nand on (job, instance, gpu) {} >= {}", busy_count, min_busy);
  const double hotter_warn = analysis::kBaselineHotterC;
  const double hotter_fail = analysis::kBaselineHotterFailFactor * hotter_warn;
  const std::string hotter = "(" + temp_median + "\n  - on (job, instance, gpu) group_left () gpuvet_baseline_temperature_celsius)";
  const std::string hot_summary =
      "GPU {{ $labels.gpu }} on {{ $labels.instance }} runs {{ $value | printf \"%.1f\" }} °C hotter under load "
      "than in the acceptance burn-in it passed";
  g.rules.push_back(alert("GpuvetBaselineHotter", core::code::baseline_drift, Severity::warn,
                          fmt::format("{} >= {:g} < {:g}", hotter, hotter_warn, hotter_fail) + enough_load,
                          std::chrono::seconds(0), hot_summary));
  g.rules.push_back(alert("GpuvetBaselineMuchHotter", core::code::baseline_drift, Severity::fail,
                          fmt::format("{} >= {:g}", hotter, hotter_fail) + enough_load, std::chrono::seconds(0),
                          hot_summary));

  const double slower_warn = analysis::kBaselineClockShare;
  const double slower_fail = analysis::kBaselineClockFailFactor * slower_warn;
  const std::string slower = "(1 - " + clock_median + "\n  / on (job, instance, gpu) group_left () gpuvet_baseline_sm_clock_hertz)";
  const std::string slow_summary =
      "GPU {{ $labels.gpu }} on {{ $labels.instance }} runs its SM clock {{ $value | humanizePercentage }} lower "
      "under load than in the acceptance burn-in it passed";
  g.rules.push_back(alert("GpuvetBaselineSlower", core::code::baseline_drift, Severity::warn,
                          fmt::format("{} >= {:g} < {:g}", slower, slower_warn, slower_fail) + enough_load,
                          std::chrono::seconds(0), slow_summary));
  g.rules.push_back(alert("GpuvetBaselineMuchSlower", core::code::baseline_drift, Severity::fail,
                          fmt::format("{} >= {:g}", slower, slower_fail) + enough_load, std::chrono::seconds(0),
                          slow_summary));
  return g;
}

}  // namespace gpuvet::monitor
