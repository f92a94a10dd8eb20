// Per-GPU hourly rollups of the telemetry store: what a months-long history keeps once the raw
// samples and the minute rollups are pruned (monitor retention, weekly trend lines). The hour is
// cut by the store's PeriodAccumulator (period_rollup.hpp), the one accumulator of both rollup
// layers; this file is the hourly_rollups table's side. Internal to src/telemetry except the
// HourRollup read back with read_hour_rollups (telemetry_store.hpp).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "telemetry/period_rollup.hpp"

namespace gpuvet::telemetry {

class Statement;

// One GPU's hour (hour = floor(t_s / 3600)). The minute-only parts of PeriodRollup (loaded,
// tflops, throttled_from_s/to_s) are not kept per hour and read back absent.
struct HourRollup : PeriodRollup {
  std::int64_t hour = 0;
};

// The hourly_rollups columns, in this order (schemas 3 to 5).
inline constexpr std::string_view kHourRollupColumns =
    "gpu, hour, samples, t_s, util_min, util_mean, util_max, temp_min, temp_mean, temp_max, power_min, power_mean, "
    "power_max, clock_min, clock_mean, clock_max, throttled, nvlink_crc_new, nvlink_replay_new, nvlink_recovery_new, "
    "ecc_corrected_new, ecc_uncorrected_new, pcie_replays_new";
inline constexpr int kHourRollupColumnCount = 23;

// INSERT of one hourly row that merges into a row of the same GPU and hour already there (a
// monitor restarted within the hour): counts add up, min/max combine, means are weighted by samples.
std::string hour_rollup_upsert_sql();
void bind_hour_rollup(Statement& st, const HourRollup& r);
// One row of "SELECT kHourRollupColumns FROM hourly_rollups".
HourRollup read_hour_rollup(const Statement& st);

}  // namespace gpuvet::telemetry
