// The limits of the one health judge (analysis/health): every face that judges a GPU's health
// (the burn-in report, `report --db`, `trend`, the monitor daemon, the Prometheus rules file)
// reads these, so a limit changed here changes all of them. Documented in docs/monitor.md
// "Alert rules" and docs/findings.md. Header only.
#pragma once

#include "analysis/utilization_peers.hpp"

namespace gpuvet::analysis::health {

// DCGM's health limits (NVIDIA DCGM, dcgm_health: NVLink CRC errors matter from 100 per second;
// PCIe replays from 8 per minute).
inline constexpr double kNvlinkCrcPerS = 100;
inline constexpr double kPcieReplaysPerMin = 8;
// A cumulative counter's growth is one episode while it keeps rising within this quiet span; a
// live alert holds this long after the last rise (the rules file: increase() over this range).
inline constexpr int kCounterWindowS = 15 * 60;
// A counter's rate is its growth over at least this span: one rise seen over a 1 s interval says
// how much, not how fast (a counter rising 5/min would read 300/min).
inline constexpr double kMinRateSpanS = 60;
// A throttle reason, and a PCIe link below its maximum, must hold this long without a break.
inline constexpr int kThrottleMinS = 30;
inline constexpr int kPcieDegradedMinS = 60;
// An Xid keeps its live alert up this long after the last one.
inline constexpr int kXidHoldS = 3600;

struct HealthLimits {
  double nvlink_crc_per_s = kNvlinkCrcPerS;          // fail from this CRC rate (warn below)
  double pcie_replays_per_min = kPcieReplaysPerMin;  // warn above this rate (info below)
  double counter_window_s = kCounterWindowS;
  double min_rate_span_s = kMinRateSpanS;
  double throttle_min_s = kThrottleMinS;
  double pcie_degraded_min_s = kPcieDegradedMinS;
  double busy_util_pct = kUtilGroupBusyPct;          // a PCIe generation below its maximum counts only while busy
  double xid_hold_s = kXidHoldS;
};

}  // namespace gpuvet::analysis::health
