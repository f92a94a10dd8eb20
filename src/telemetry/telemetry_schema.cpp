// The burn-in database schema, version 6, and the migrations from 4 and 5.
#include "telemetry/telemetry_schema.hpp"

#include "telemetry/minute_rollup.hpp"
#include "telemetry/traffic_table.hpp"

#include <fmt/format.h>

#include <string>
#include <type_traits>

namespace gpuvet::telemetry {

namespace {

// A field visitor that appends ", name" to `out`.
auto append_name(std::string& out) {
  return [&out](std::string_view name, auto) { out += fmt::format(", {}", name); };
}

}  // namespace

std::string gpu_columns() {
  std::string out = "idx";
  for_each_gpu_field(append_name(out));
  return out;
}

std::string nvlink_columns() {
  std::string out = "gpu, t_s, link";
  for_each_field(append_name(out), kNvlinkCounters);
  return out;
}

std::string insert_sql(std::string_view table, const std::string& columns) {
  std::string values = "?";
  for (const char c : columns) {
    if (c == ',') values += ",?";
  }
  return fmt::format("INSERT INTO {} ({}) VALUES ({})", table, columns, values);
}

// The gpus and nvlink tables spell out the columns of kGpu*Fields and kNvlinkCounters.
std::string schema_sql(std::string_view purpose) {
  return fmt::format(R"SQL(
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE run (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  source TEXT NOT NULL, simulated INTEGER NOT NULL, hostname TEXT NOT NULL, dtype TEXT NOT NULL,
  faults TEXT NOT NULL, interval_s REAL NOT NULL, planned_duration_s REAL NOT NULL,
  started_unix_ms INTEGER NOT NULL, status TEXT NOT NULL, ended_t_s REAL,
  stress_backend TEXT NOT NULL, telemetry_source TEXT NOT NULL);
CREATE TABLE gpus (
  idx INTEGER PRIMARY KEY, name TEXT, uuid TEXT, pci_bus_id TEXT, power_limit_w REAL,
  shutdown_temp_c REAL, slowdown_temp_c REAL, max_sm_clock_mhz REAL);
-- Why a field is absent: once per GPU for what it does not support (probed at start) ...
CREATE TABLE unsupported (gpu INTEGER NOT NULL, field TEXT NOT NULL, reason TEXT NOT NULL,
  PRIMARY KEY (gpu, field));
-- ... and per sample for a supported field that failed to read at that tick.
CREATE TABLE sample_absences (gpu INTEGER NOT NULL, t_s REAL NOT NULL, field TEXT NOT NULL, reason TEXT NOT NULL);
-- One row per tick, in time order (rowid): every GPU's sample, delta-encoded (sample_codec.hpp).
CREATE TABLE ticks (t_s REAL NOT NULL, unix_ms INTEGER NOT NULL, data BLOB NOT NULL);
-- NVLink counters are written when a link's counters change (and at its first sample), in time order.
CREATE TABLE nvlink (gpu INTEGER NOT NULL, t_s REAL NOT NULL, link INTEGER NOT NULL,
  crc_flit INTEGER, crc_data INTEGER, replay INTEGER, recovery INTEGER);
CREATE TABLE events (gpu INTEGER NOT NULL, t_s REAL NOT NULL, kind TEXT NOT NULL, code INTEGER NOT NULL,
  message TEXT NOT NULL);
-- Per GPU and minute of run time, written as the run goes (charts, monitor history; minute_rollup.hpp).
{}
-- Per GPU and hour of run time (hour_rollup.hpp): kept longest, for months of monitor history.
CREATE TABLE hourly_rollups (gpu INTEGER NOT NULL, hour INTEGER NOT NULL, samples INTEGER NOT NULL, t_s REAL NOT NULL,
  util_min REAL, util_mean REAL, util_max REAL, temp_min REAL, temp_mean REAL, temp_max REAL,
  power_min REAL, power_mean REAL, power_max REAL, clock_min REAL, clock_mean REAL, clock_max REAL,
  throttled INTEGER NOT NULL, nvlink_crc_new INTEGER, nvlink_replay_new INTEGER, nvlink_recovery_new INTEGER,
  ecc_corrected_new INTEGER, ecc_uncorrected_new INTEGER, pcie_replays_new INTEGER,
  PRIMARY KEY (gpu, hour)) WITHOUT ROWID;
-- Each process that wrote the file: one for a burn-in, one per start of a monitor on it, with its
-- sampling interval (NULL: a segment written before schema 5).
CREATE TABLE segments (started_unix_ms INTEGER NOT NULL, first_t_s REAL NOT NULL, ended_t_s REAL,
  telemetry_source TEXT NOT NULL, interval_s REAL);
INSERT INTO meta (key, value) VALUES ('schema', 'gpuvet.burnin.db'), ('schema_version', '{}'), ('purpose', '{}');
)SQL",
                     minute_rollup_table_sql(), kSchemaVersion, purpose) +
         traffic_tables_sql();
}

std::string schema_migration_sql(int from) {
  if ((from != 4 && from != 5) || kSchemaVersion != 6) return {};
  const std::string to5 = from == 4 ? minute_rollup_migration_sql() + "ALTER TABLE segments ADD COLUMN interval_s REAL;\n" : "";
  return to5 + traffic_tables_sql() + fmt::format("UPDATE meta SET value = '{}' WHERE key = 'schema_version';\n", kSchemaVersion);
}

std::string not_recorded_reason(int schema_version) {
  return fmt::format("not recorded (a schema {} history, before gpuvet stored this reading)", schema_version);
}

}  // namespace gpuvet::telemetry
