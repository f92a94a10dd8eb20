// The vocabulary of `gpuvet trend`: a period of history per GPU in time buckets, the acceptance
// baseline, and what the trend judge concludes. Built by analysis/trend_history (from the store),
// judged by analysis/trend_judge, rendered by report/trend_*. Means are over known values only:
// a field with no known value is absent (nullopt), never zero.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/finding.hpp"
#include "core/telemetry.hpp"

namespace gpuvet::core {

// One GPU over one bucket [start, start + bucket). Means are over the known values; a field with
// no known value in the bucket is absent (nullopt), never zero.
struct TrendPoint {
  std::int64_t start_unix_ms = 0;
  std::size_t samples = 0;                 // raw samples, plus the samples behind each minute rollup
  std::optional<double> power_w, temp_c, max_temp_c, sm_clock_mhz, util_pct;
  std::size_t loaded = 0;                  // samples under the burn-in's GEMM load (TFLOP/s known)
  // Counter growth inside the bucket (sum of increases between consecutive known readings); absent
  // when the counter was never read twice in a row in the bucket (rollups keep no counters).
  std::optional<std::uint64_t> nvlink_errors;   // CRC flit + CRC data + replay + recovery, all links
  std::optional<std::uint64_t> ecc_corrected, ecc_uncorrected;
  bool from_rollups = false;               // some of the bucket comes from hourly rollups (raw samples pruned)
};

struct GpuTrend {
  int gpu = 0;
  std::string name;                        // "NVIDIA H100 80GB HBM3" or "" when unknown
  std::string uuid;
  std::vector<TrendPoint> points;          // time order, buckets with samples only
};

// An event of the period with its wall-clock time.
struct TrendEvent {
  std::int64_t unix_ms = 0;
  TelemetryEvent event;
};

struct TrendHistory {
  std::int64_t from_unix_ms = 0;           // the period [from, to]
  std::int64_t to_unix_ms = 0;
  double bucket_s = 3600;
  double interval_s = 1;                   // sampling interval of the run
  std::vector<GpuTrend> gpus;              // by index
  std::vector<TrendEvent> events;          // in time order
};

// What one GPU ran at under full load during the acceptance burn-in (steady state).
struct TrendBaselineGpu {
  int gpu = 0;
  std::optional<double> temp_c, sm_clock_mhz, power_w;
};

// The acceptance bundle given as --baseline.
struct TrendBaseline {
  std::string label;                 // the bundle directory as named
  std::string finished_utc;          // when the acceptance run finished
  std::string hostname;
  std::vector<TrendBaselineGpu> gpus;
};

// Per GPU, what the report tables show.
struct TrendStanding {
  int gpu = 0;
  double comparable_s = 0;           // sampled time at the same load as its peers
  std::optional<double> temp_above_peers_c;     // median over the comparable buckets
  std::optional<double> clock_below_peers_share;
  double busy_s = 0;                 // sampled time under load (baseline comparison)
  std::optional<double> busy_temp_c, busy_sm_clock_mhz;  // medians over the busy buckets
  std::optional<TrendBaselineGpu> baseline;
};

struct TrendAssessment {
  std::vector<Finding> findings;
  std::vector<std::string> unverified;  // checks that could not run; any entry makes the verdict incomplete
  std::vector<TrendStanding> gpus;
};

}  // namespace gpuvet::core
