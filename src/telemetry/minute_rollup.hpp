// Per-GPU minute rollups of the telemetry store: the burn-in charts and the middle layer of a
// monitor history (kept longer than the raw samples, shorter than the hours). Cut by the store's
// PeriodAccumulator (period_rollup.hpp), the same accumulator as the hours; this file is the
// `rollups` table's side across schema versions. Internal to src/telemetry except MinuteRollup
// (read back through telemetry_store.hpp: TelemetryStore::for_each_rollup, read_rollups).
#pragma once

#include <cstdint>
#include <string>

#include "telemetry/period_rollup.hpp"

namespace gpuvet::telemetry {

class Statement;

// One GPU's minute (minute = floor(t_s / 60)). Schemas 2 to 4 kept only the means of temperature,
// SM clock and power, the maximum temperature, TFLOP/s and the throttled samples; the rest of a
// row they wrote (utilization, the other minima and maxima, counter growth) reads absent and
// `not_recorded` says why ("not recorded (a schema 4 history, before gpuvet stored this reading)").
struct MinuteRollup : PeriodRollup {
  std::int64_t minute = 0;
  std::string not_recorded;  // empty: the row holds everything its samples gave
};

// The rollups table of a new database (schema 5).
std::string minute_rollup_table_sql();
// Turns a schema 4 rollups table into a schema 5 one (ALTER TABLE ... ADD COLUMN; the rows already
// there read as written by schema 4). Part of the caller's transaction.
std::string minute_rollup_migration_sql();
// INSERT of one row into a table of `table_version` (a schema 3 history continued keeps its
// layout), merged into a row of the same GPU and minute already there (a restart within the
// minute), as the hourly rows are.
std::string minute_rollup_upsert_sql(int table_version);
void bind_minute_rollup(Statement& st, const MinuteRollup& r, int table_version);
// SELECT of every row by GPU then minute from a table of `table_version`, read with read_minute_rollup.
std::string minute_rollup_select_sql(int table_version);
MinuteRollup read_minute_rollup(const Statement& st);

}  // namespace gpuvet::telemetry
