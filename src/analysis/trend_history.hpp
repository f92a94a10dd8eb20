// The history a trend report is drawn from: per GPU, one point per time bucket of the period
// (means of power, temperature, SM clock and utilization; growth of the NVLink and ECC error
// counters), built as the store is read (raw samples, and per-minute rollups where the raw
// samples were pruned) by TrendAccumulator. Pure; memory is one point per GPU and bucket, never
// the samples. Read by analysis/trend_judge and rendered by report/trend_*.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/telemetry.hpp"
#include "core/trend.hpp"

namespace gpuvet::analysis {

using core::GpuTrend;
using core::TrendEvent;
using core::TrendHistory;
using core::TrendPoint;


// The bucket for a period: the smallest of 1 min, 5 min, 15 min, 1 h, 6 h that gives at most
// kMaxTrendPoints points per line.
inline constexpr std::size_t kMaxTrendPoints = 240;
double trend_bucket_s(double period_s);

// "2026-12-01 17:05 UTC".
std::string utc_minute(std::int64_t unix_ms);

// One rollup as the store keeps it (telemetry::HourRollup: what is left once raw samples are
// pruned), with wall-clock time: means over its samples, counter growth over its span.
struct RollupInput {
  int gpu = 0;
  std::int64_t unix_ms = 0;                // start of its hour (or minute)
  double span_s = 3600;
  std::size_t samples = 0, loaded = 0;
  std::optional<double> temp_c, max_temp_c, sm_clock_mhz, power_w, util_pct;
  std::optional<std::uint64_t> nvlink_errors, ecc_corrected, ecc_uncorrected;
  // For the period's health (analysis/trend_rollup_health): samples with a thermal/hardware
  // slowdown or power brake, and each counter's growth (NVLink summed over links).
  std::size_t throttled = 0;
  std::optional<std::uint64_t> nvlink_crc, nvlink_replay, nvlink_recovery, pcie_replays;
};

// Builds a TrendHistory from samples and rollups in any mix, for the period [from, to]. Samples
// of one GPU must arrive in time order (counters grow between consecutive samples); rollups in
// any order. The caller feeds a rollup only for time no raw sample covers.
class TrendAccumulator {
 public:
  TrendAccumulator(std::int64_t from_unix_ms, std::int64_t to_unix_ms, double bucket_s, double interval_s,
                   const std::vector<core::BurninGpu>& gpus);
  void add_sample(const core::TelemetrySample& sample);
  void add_rollup(const RollupInput& rollup);
  void add_event(std::int64_t unix_ms, const core::TelemetryEvent& event);
  [[nodiscard]] TrendHistory finish() const;

 private:
  struct Sums {
    std::size_t samples = 0, loaded = 0;
    double sum[4] = {};          // power, temp, clock, util
    std::size_t known[4] = {};
    std::optional<double> max_temp_c;
    std::optional<std::uint64_t> nvlink, ecc_corrected, ecc_uncorrected;
    bool from_rollups = false;
  };
  struct Counters {  // the last known reading of each counter of one GPU
    std::optional<std::uint64_t> nvlink, ecc_corrected, ecc_uncorrected;
  };
  [[nodiscard]] std::int64_t bucket_of(std::int64_t unix_ms) const;
  std::int64_t from_ms_, to_ms_;
  double bucket_s_, interval_s_;
  std::vector<core::BurninGpu> gpus_;
  std::map<int, std::map<std::int64_t, Sums>> buckets_;  // gpu -> bucket index -> sums
  std::map<int, Counters> last_;
  std::vector<TrendEvent> events_;
};

}  // namespace gpuvet::analysis
