// The trend judge (`gpuvet trend`): which cards stand out over a period of history, against their
// peers at the same load (hotter_than_peers, slower_than_peers) and against the acceptance
// burn-in they passed (baseline_drift), plus the health findings of the period from the burn-in
// judge's counters and events. Pure: history (analysis/trend_history.hpp) in, findings out.
// Thresholds and the reading of "same load" are documented in docs/monitor.md ("Trend report").
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "analysis/baseline_drift.hpp"
#include "analysis/trend_history.hpp"
#include "analysis/utilization_peers.hpp"
#include "core/finding.hpp"
#include "core/telemetry.hpp"
#include "core/trend.hpp"

namespace gpuvet::analysis {

using core::TrendAssessment;
using core::TrendBaseline;
using core::TrendBaselineGpu;
using core::TrendStanding;

struct TrendThresholds {
  double busy_util_pct = 50;         // the peers' median utilization at least this: the group is busy
  double same_load_points = 10;      // a GPU's utilization within this many points of its peers' median
  double loaded_share = 0.9;         // without utilization: share of samples under the burn-in's load
  double hotter_warn_c = 8;          // mean temperature above the peers' median by this much ...
  double hotter_fail_c = 15;
  double slower_warn_share = 0.05;   // mean SM clock below the peers' median by this share ...
  double slower_fail_share = 0.15;
  double min_out_s = 2 * 3600.0;     // ... for at least this long (sampled time) ...
  double min_out_share = 0.5;        // ... and at least this share of the time it could be compared
  double baseline_busy_util_pct = kBaselineBusyUtilPct;  // a GPU under load, compared with its acceptance burn-in
  double baseline_temp_c = kBaselineHotterC;  // hotter than at acceptance by this much (warn), twice that (fail)
  double baseline_clock_share = kBaselineClockShare;  // SM clock lower than at acceptance by this share (warn), three times (fail)
  double baseline_min_busy_s = 2 * 3600.0;
  // utilization_below_peers: the daemon's definition (analysis/utilization_peers.hpp) per bucket.
  double util_below_share = kUtilBelowPeersShare;
  double util_busy_pct = kUtilGroupBusyPct;
  double util_min_below_s = kUtilBelowPeersWindowS;
};


// Peers (hotter, slower, utilization below) and baseline. `baseline` absent: no baseline comparison (and no unverified line for it).
TrendAssessment judge_trend(const TrendHistory& history, const std::optional<TrendBaseline>& baseline,
                            const TrendThresholds& thresholds = {});

// The findings of the burn-in judge, fed the period's samples and events, that are about the
// machine's health in any workload: the health judge's (analysis/health: Xid, lost GPUs, ECC,
// NVLink and PCIe counters and links, memory repairs, throttling other than the power cap) and
// GEMM miscompares; the load-specific ones (TFLOP/s, power reached) are left out, since a
// monitored machine runs the users' jobs, not the burn-in's GEMMs.
std::vector<core::Finding> period_health_findings(const core::BurninAssessment& assessment);

}  // namespace gpuvet::analysis
