// The SQL side of the rollup tables (internal to src/telemetry): which column holds which part of a
// PeriodRollup, how a row is bound and read, and the INSERT that merges a period written twice (a
// monitor restarted within the minute or hour). Used by minute_rollup.cpp and hour_rollup.cpp.
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "telemetry/period_rollup.hpp"

namespace gpuvet::telemetry {

class Statement;

// The part of a PeriodRollup a column holds.
enum class RollupField {
  samples, t_s, util_min, util_mean, util_max, temp_min, temp_mean, temp_max, power_min, power_mean, power_max,
  clock_min, clock_mean, clock_max, throttled, nvlink_crc_new, nvlink_replay_new, nvlink_recovery_new,
  ecc_corrected_new, ecc_uncorrected_new, pcie_replays_new, loaded, tflops, throttled_from_s, throttled_to_s,
};

// How two rows of one period combine: counts and counter growth add up (absent + x = x), means
// are weighted by the samples (tflops: by the loaded samples), min/max combine.
enum class RollupMerge { sum, mean_by_samples, mean_by_loaded, min, max };

struct RollupColumn {
  std::string_view name;
  RollupField field;
  RollupMerge merge;
  std::string_view type;  // SQL type ("REAL", "INTEGER NOT NULL", ...)
};

// "a, b, c" of the columns' names.
std::string rollup_column_names(std::span<const RollupColumn> columns);
// INSERT INTO table (key1, key2, columns..., extra) VALUES (...) ON CONFLICT (key1, key2) DO UPDATE
// SET each column merged; `extra_set` (", name = expr" SQL, or empty) appended to the SET list for
// columns the caller binds after `columns` (`extra_columns` names them).
std::string rollup_upsert_sql(std::string_view table, std::string_view key1, std::string_view key2,
                              std::span<const RollupColumn> columns, std::string_view extra_columns = {},
                              std::string_view extra_set = {});
// Binds the columns from parameter `col` on (advanced past them).
void bind_rollup_columns(Statement& st, int& col, const PeriodRollup& r, std::span<const RollupColumn> columns);
// Reads the columns from result column `col` on (advanced past them); NULL reads as absent.
void read_rollup_columns(const Statement& st, int& col, PeriodRollup& r, std::span<const RollupColumn> columns);

}  // namespace gpuvet::telemetry
