// baseline_drift, the limits both judges share: `gpuvet trend --baseline` over the period
// (trend_baseline_rules.cpp) and the monitor daemon's evaluator over its window
// (monitor/baseline_drift_watch.cpp). A GPU under load that runs hotter, or at a lower SM clock,
// than in the acceptance burn-in it passed. Documented in docs/monitor.md.
#pragma once

#include "core/finding.hpp"

namespace gpuvet::analysis {

inline constexpr double kBaselineBusyUtilPct = 80;     // under load: utilization at least this
inline constexpr double kBaselineHotterC = 8;          // hotter than at acceptance by this (warn), twice (fail)
inline constexpr double kBaselineClockShare = 0.05;    // SM clock lower by this share (warn), three times (fail)
inline constexpr double kBaselineHotterFailFactor = 2;  // fail from this many times the warn limit (temperature)
inline constexpr double kBaselineClockFailFactor = 3;   // fail from this many times the warn limit (SM clock)

// info (no finding), warn or fail for a GPU `hotter_c` degrees above its acceptance steady state,
// against `warn_c` (fail at kBaselineHotterFailFactor times; the Prometheus rules read the same).
core::Severity baseline_hotter_severity(double hotter_c, double warn_c = kBaselineHotterC);
// The same for an SM clock `lower_share` (0..1) below its acceptance steady state (fail at
// kBaselineClockFailFactor times).
core::Severity baseline_slower_severity(double lower_share, double warn_share = kBaselineClockShare);

}  // namespace gpuvet::analysis
