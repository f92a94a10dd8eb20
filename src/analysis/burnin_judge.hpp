// The burn-in judge: a stored run (core::BurninRecord, as the telemetry store gives it back)
// -> findings, what could not be verified, and a per-GPU summary. Pure: the same record always
// gives the same verdict, so `gpuvet report --db` rebuilds exactly what the run printed.
#pragma once

#include <string>
#include <vector>

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
  double pcie_replays_per_min = 8;       // DCGM's limit (8 replays per minute)
  double nvlink_crc_per_s = 100;         // DCGM: CRC errors matter from 100 per second
};

using BurninGpuSummary = core::BurninGpuSummary;
using BurninAssessment = core::BurninAssessment;

BurninAssessment judge_burnin(const core::BurninRecord& record, const BurninThresholds& thresholds = {});

}  // namespace gpuvet::analysis
