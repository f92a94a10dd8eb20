// The alert windows that the daemon's own evaluator (alert_evaluator) and the Prometheus alerting
// rules file (prometheus_rules, `gpuvet monitor rules`) share, so both read "stays more than 20 %
// below the group's mean" over the same span (docs/monitor.md "Alert rules"). Header only.
#pragma once

#include <chrono>

namespace gpuvet::monitor {

// utilization_below_peers: each GPU's mean utilization, and the group's mean of those means, over
// this window. The daemon judges once its window is full; Prometheus, whose avg_over_time does
// not know whether the window is full, holds the alert for the same span (`for:`) instead.
inline constexpr std::chrono::seconds kUtilizationWindow{5 * 60};

// Counter alerts (nvlink_errors_growing, ecc_errors_new, retired pages, pcie_replays, xid_event in
// the rules file): up while the counter rose within this window. The daemon holds the alert this
// long after the last rise; the rules ask increase()/rate() over the same range.
inline constexpr std::chrono::seconds kCounterWindow{15 * 60};

}  // namespace gpuvet::monitor
