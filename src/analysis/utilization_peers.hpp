// utilization_below_peers, one definition for the monitor daemon's evaluator (monitor/alert_evaluator,
// over a sliding window) and gpuvet trend (analysis/trend_utilization_rule, over the report's time
// buckets): a GPU whose mean utilization is below (1 - share) x its group's mean while the group is
// busy. The group's mean is the mean of every GPU's mean, the GPU's own included. Header only.
// "20 % below" is read as a share of the group's mean (80 % of it), not 20 points: docs/monitor.md.
#pragma once

namespace gpuvet::analysis {

inline constexpr double kUtilBelowPeersShare = 0.20;  // below (1 - share) x the group's mean utilization
inline constexpr double kUtilGroupBusyPct = 50;       // the group is busy when its mean utilization is at least this
inline constexpr int kUtilBelowPeersWindowS = 5 * 60;  // the daemon's window; trend: below for at least this long

// The group (at least two GPUs) is busy enough for the comparison to mean anything.
inline bool utilization_group_busy(double group_mean_pct, double busy_pct = kUtilGroupBusyPct) {
  return group_mean_pct >= busy_pct;
}

// The GPU's mean utilization is more than `share` below its group's mean.
inline bool utilization_below_peers(double own_pct, double group_mean_pct, double share = kUtilBelowPeersShare) {
  return own_pct < (1 - share) * group_mean_pct;
}

}  // namespace gpuvet::analysis
