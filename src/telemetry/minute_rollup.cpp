// The rollups table (per GPU and minute): its columns in schemas 2 to 5, the merging insert,
// binding and reading a row.
#include "telemetry/minute_rollup.hpp"

#include <fmt/format.h>

#include <array>
#include <span>
#include <vector>

#include "telemetry/rollup_sql.hpp"
#include "telemetry/sqlite_db.hpp"
#include "telemetry/telemetry_schema.hpp"

namespace gpuvet::telemetry {

namespace {

using F = RollupField;
using M = RollupMerge;

// After gpu, minute: the columns of schemas 2 to 4 ...
constexpr std::array<RollupColumn, 11> kSchema2Columns = {{
    {"samples", F::samples, M::sum, "INTEGER NOT NULL"},
    {"t_s", F::t_s, M::mean_by_samples, "REAL NOT NULL"},
    {"loaded", F::loaded, M::sum, "INTEGER NOT NULL"},
    {"tflops", F::tflops, M::mean_by_loaded, "REAL"},
    {"gpu_temp_c", F::temp_mean, M::mean_by_samples, "REAL"},
    {"max_temp_c", F::temp_max, M::max, "REAL"},
    {"sm_clock_mhz", F::clock_mean, M::mean_by_samples, "REAL"},
    {"power_w", F::power_mean, M::mean_by_samples, "REAL"},
    {"throttled", F::throttled, M::sum, "INTEGER NOT NULL"},
    {"throttled_from_s", F::throttled_from_s, M::min, "REAL"},
    {"throttled_to_s", F::throttled_to_s, M::max, "REAL"},
}};
// ... and those schema 5 adds after them (ALTER TABLE ADD COLUMN appends), so a row holds what an
// hourly row holds. Then written_by_schema.
constexpr std::array<RollupColumn, 14> kSchema5Columns = {{
    {"util_min", F::util_min, M::min, "REAL"},
    {"util_mean", F::util_mean, M::mean_by_samples, "REAL"},
    {"util_max", F::util_max, M::max, "REAL"},
    {"temp_min", F::temp_min, M::min, "REAL"},
    {"power_min", F::power_min, M::min, "REAL"},
    {"power_max", F::power_max, M::max, "REAL"},
    {"clock_min", F::clock_min, M::min, "REAL"},
    {"clock_max", F::clock_max, M::max, "REAL"},
    {"nvlink_crc_new", F::nvlink_crc_new, M::sum, "INTEGER"},
    {"nvlink_replay_new", F::nvlink_replay_new, M::sum, "INTEGER"},
    {"nvlink_recovery_new", F::nvlink_recovery_new, M::sum, "INTEGER"},
    {"ecc_corrected_new", F::ecc_corrected_new, M::sum, "INTEGER"},
    {"ecc_uncorrected_new", F::ecc_uncorrected_new, M::sum, "INTEGER"},
    {"pcie_replays_new", F::pcie_replays_new, M::sum, "INTEGER"},
}};
// The schema that wrote the row: rows of a schema 4 file migrated in place read 4 (the default);
// a merged row keeps the older one (its early part lacks the schema 5 columns).
constexpr std::string_view kWrittenBy = "written_by_schema";
constexpr std::string_view kWrittenByType = "INTEGER NOT NULL DEFAULT 4";

bool has_schema5_columns(int table_version) { return table_version >= 5; }

}  // namespace

std::string minute_rollup_table_sql() {
  std::string columns = "gpu INTEGER NOT NULL, minute INTEGER NOT NULL";
  const auto add = [&](std::span<const RollupColumn> set) {
    for (const auto& c : set) columns += fmt::format(", {} {}", c.name, c.type);
  };
  add(kSchema2Columns);
  add(kSchema5Columns);
  return fmt::format("CREATE TABLE rollups ({}, {} {}, PRIMARY KEY (gpu, minute)) WITHOUT ROWID;", columns, kWrittenBy,
                     kWrittenByType);
}

std::string minute_rollup_migration_sql() {
  std::string out;
  for (const auto& c : kSchema5Columns) out += fmt::format("ALTER TABLE rollups ADD COLUMN {} {};\n", c.name, c.type);
  return out + fmt::format("ALTER TABLE rollups ADD COLUMN {} {};\n", kWrittenBy, kWrittenByType);
}

std::string minute_rollup_upsert_sql(int table_version) {
  if (!has_schema5_columns(table_version)) return rollup_upsert_sql("rollups", "gpu", "minute", kSchema2Columns);
  std::vector<RollupColumn> all(kSchema2Columns.begin(), kSchema2Columns.end());
  all.insert(all.end(), kSchema5Columns.begin(), kSchema5Columns.end());
  return rollup_upsert_sql("rollups", "gpu", "minute", all, kWrittenBy,
                           fmt::format(", {0} = min({0}, excluded.{0})", kWrittenBy));
}

void bind_minute_rollup(Statement& st, const MinuteRollup& r, int table_version) {
  int col = 1;
  st.bind(col++, static_cast<std::int64_t>(r.gpu));
  st.bind(col++, r.minute);
  bind_rollup_columns(st, col, r, kSchema2Columns);
  if (!has_schema5_columns(table_version)) return;
  bind_rollup_columns(st, col, r, kSchema5Columns);
  st.bind(col, std::int64_t{kSchemaVersion});
}

std::string minute_rollup_select_sql(int table_version) {
  std::string added, written_by;
  if (has_schema5_columns(table_version)) {
    added = rollup_column_names(kSchema5Columns);
    written_by = kWrittenBy;
  } else {
    for (std::size_t i = 0; i < kSchema5Columns.size(); ++i) added += i == 0 ? "NULL" : ", NULL";
    written_by = std::to_string(table_version);
  }
  return fmt::format("SELECT gpu, minute, {}, {}, {} FROM rollups ORDER BY gpu, minute", rollup_column_names(kSchema2Columns),
                     added, written_by);
}

MinuteRollup read_minute_rollup(const Statement& st) {
  MinuteRollup r;
  int col = 0;
  r.gpu = static_cast<int>(st.get_int(col++));
  r.minute = st.get_int(col++);
  read_rollup_columns(st, col, r, kSchema2Columns);
  read_rollup_columns(st, col, r, kSchema5Columns);
  const auto written_by = static_cast<int>(st.get_int(col));
  if (written_by < 5) r.not_recorded = not_recorded_reason(written_by);
  return r;
}

}  // namespace gpuvet::telemetry
