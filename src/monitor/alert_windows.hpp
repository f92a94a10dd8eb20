// The alert windows that the daemon's own evaluator (alert_evaluator, baseline_drift_watch) and the Prometheus alerting
// rules file (prometheus_rules, `gpuvet monitor rules`) share, so both read "stays more than 20 %
// below the group's mean" over the same span (docs/monitor.md "Alert rules"). Header only.
#pragma once

#include <chrono>

#include "analysis/health/health_limits.hpp"
#include "analysis/utilization_peers.hpp"

namespace gpuvet::monitor {

// utilization_below_peers: each GPU's mean utilization, and the group's mean of those means, over
// this window. The daemon judges once its window is full; Prometheus, whose avg_over_time does
// not know whether the window is full, holds the alert for the same span (`for:`) instead.
inline constexpr std::chrono::seconds kUtilizationWindow{analysis::kUtilBelowPeersWindowS};

// Counter alerts (nvlink_errors_growing, ecc_errors_new, retired pages, remapped rows,
// pcie_replays, xid_event in the rules file): up while the counter rose within this window (the
// health judge's, analysis/health/health_limits.hpp). The daemon holds the alert this long after
// the last rise; the rules ask increase()/rate() over the same range.
inline constexpr std::chrono::seconds kCounterWindow{analysis::health::kCounterWindowS};

// baseline_drift (with --baseline; the rules file over the gpuvet_baseline_* gauges): each GPU's
// minute means over the last hour; the minutes under load (mean utilization at least
// analysis::kBaselineBusyUtilPct) must add up to kBaselineDriftMinBusy before the median of their
// temperatures and SM clocks is held against the acceptance burn-in's steady state.
inline constexpr std::chrono::seconds kBaselineDriftBucket{60};
inline constexpr std::chrono::seconds kBaselineDriftWindow{60 * 60};
inline constexpr std::chrono::seconds kBaselineDriftMinBusy{30 * 60};

// hotter_than_peers / slower_than_peers in the daemon (peer_standing_watch): the trend judge's
// peer rule over this window of buckets, judged each time a bucket closes. The rule itself asks
// for at least 2 h out of line (analysis::TrendThresholds), so the window holds three times that.
inline constexpr std::chrono::seconds kPeerStandingBucket{15 * 60};
inline constexpr std::chrono::seconds kPeerStandingWindow{6 * 3600};

}  // namespace gpuvet::monitor
