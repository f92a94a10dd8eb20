// The hourly_rollups table: its columns, the merging insert, binding and reading a row.
#include "telemetry/hour_rollup.hpp"

#include <array>

#include "telemetry/rollup_sql.hpp"
#include "telemetry/sqlite_db.hpp"

namespace gpuvet::telemetry {

namespace {

using F = RollupField;
using M = RollupMerge;

// After gpu, hour: kHourRollupColumns.
constexpr std::array<RollupColumn, 21> kColumns = {{
    {"samples", F::samples, M::sum, "INTEGER NOT NULL"},
    {"t_s", F::t_s, M::mean_by_samples, "REAL NOT NULL"},
    {"util_min", F::util_min, M::min, "REAL"},
    {"util_mean", F::util_mean, M::mean_by_samples, "REAL"},
    {"util_max", F::util_max, M::max, "REAL"},
    {"temp_min", F::temp_min, M::min, "REAL"},
    {"temp_mean", F::temp_mean, M::mean_by_samples, "REAL"},
    {"temp_max", F::temp_max, M::max, "REAL"},
    {"power_min", F::power_min, M::min, "REAL"},
    {"power_mean", F::power_mean, M::mean_by_samples, "REAL"},
    {"power_max", F::power_max, M::max, "REAL"},
    {"clock_min", F::clock_min, M::min, "REAL"},
    {"clock_mean", F::clock_mean, M::mean_by_samples, "REAL"},
    {"clock_max", F::clock_max, M::max, "REAL"},
    {"throttled", F::throttled, M::sum, "INTEGER NOT NULL"},
    {"nvlink_crc_new", F::nvlink_crc_new, M::sum, "INTEGER"},
    {"nvlink_replay_new", F::nvlink_replay_new, M::sum, "INTEGER"},
    {"nvlink_recovery_new", F::nvlink_recovery_new, M::sum, "INTEGER"},
    {"ecc_corrected_new", F::ecc_corrected_new, M::sum, "INTEGER"},
    {"ecc_uncorrected_new", F::ecc_uncorrected_new, M::sum, "INTEGER"},
    {"pcie_replays_new", F::pcie_replays_new, M::sum, "INTEGER"},
}};
static_assert(kColumns.size() + 2 == kHourRollupColumnCount);

}  // namespace

std::string hour_rollup_upsert_sql() { return rollup_upsert_sql("hourly_rollups", "gpu", "hour", kColumns); }

void bind_hour_rollup(Statement& st, const HourRollup& r) {
  int col = 1;
  st.bind(col++, static_cast<std::int64_t>(r.gpu));
  st.bind(col++, r.hour);
  bind_rollup_columns(st, col, r, kColumns);
}

HourRollup read_hour_rollup(const Statement& st) {
  HourRollup r;
  int col = 0;
  r.gpu = static_cast<int>(st.get_int(col++));
  r.hour = st.get_int(col++);
  read_rollup_columns(st, col, r, kColumns);
  return r;
}

}  // namespace gpuvet::telemetry
