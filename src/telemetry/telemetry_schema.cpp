// The burn-in database schema, version 1.
#include "telemetry/telemetry_schema.hpp"

#include <fmt/format.h>

#include <string>

namespace gpuvet::telemetry {

std::string sample_columns() {
  std::string out = "gpu, t_s, unix_ms";
  for (const auto& f : kRealFields) out += fmt::format(", {}", f.first);
  for (const auto& f : kCountFields) out += fmt::format(", {}", f.first);
  for (const auto& f : kIntFields) out += fmt::format(", {}", f.first);
  for (const auto& f : kBoolFields) out += fmt::format(", {}", f.first);
  out += fmt::format(", {}", kNvlinkField);
  return out;
}

std::string schema_sql() {
  std::string columns;
  for (const auto& f : kRealFields) columns += fmt::format(",\n  {} REAL", f.first);
  for (const auto& f : kCountFields) columns += fmt::format(",\n  {} INTEGER", f.first);
  for (const auto& f : kIntFields) columns += fmt::format(",\n  {} INTEGER", f.first);
  for (const auto& f : kBoolFields) columns += fmt::format(",\n  {} INTEGER", f.first);
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
-- Why a field is NULL: once per GPU for what it does not support (probed at start) ...
CREATE TABLE unsupported (gpu INTEGER NOT NULL, field TEXT NOT NULL, reason TEXT NOT NULL,
  PRIMARY KEY (gpu, field));
-- ... and per sample for a supported field that failed to read at that tick.
CREATE TABLE sample_absences (gpu INTEGER NOT NULL, t_s REAL NOT NULL, field TEXT NOT NULL, reason TEXT NOT NULL);
CREATE TABLE samples (
  gpu INTEGER NOT NULL, t_s REAL NOT NULL, unix_ms INTEGER NOT NULL{},
  {} INTEGER);
-- NVLink counters are written when a link's counters change (and at its first sample).
CREATE TABLE nvlink (gpu INTEGER NOT NULL, t_s REAL NOT NULL, link INTEGER NOT NULL,
  crc_flit INTEGER, crc_data INTEGER, replay INTEGER, recovery INTEGER);
CREATE TABLE events (gpu INTEGER NOT NULL, t_s REAL NOT NULL, kind TEXT NOT NULL, code INTEGER NOT NULL,
  message TEXT NOT NULL);
CREATE INDEX samples_by_time ON samples (t_s, gpu);
INSERT INTO meta (key, value) VALUES ('schema', 'gpuvet.burnin.db'), ('schema_version', '{}');
)SQL",
                     columns, kNvlinkField, kSchemaVersion);
}

}  // namespace gpuvet::telemetry
