// Segments of a history (each process that wrote the file, with its sampling interval) and what
// reopen() does before it writes: refuse another interval, migrate a schema 4 history in place.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "core/duration.hpp"
#include "telemetry/sqlite_db.hpp"
#include "telemetry/telemetry_schema.hpp"
#include "telemetry/telemetry_store.hpp"

namespace gpuvet::telemetry {

namespace {

core::Result<double> run_interval_s(Database& db) {
  auto st = db.prepare("SELECT interval_s FROM run WHERE id = 1");
  if (!st) return st.error();
  auto row = st.value()->step();
  if (!row) return row.error();
  if (!row.value()) return core::input_error(fmt::format("{}: the run was never recorded", db.path()));
  return st.value()->get_double(0);
}

}  // namespace

// Why refuse rather than record each segment's interval and let readers honour it: every reader
// (burn-in judge, report, trend, baseline) counts time as samples x run.interval_s; one interval
// per history keeps all of them right, and a new interval is a new --db.
std::optional<core::Error> check_history_interval(const std::string& path, double interval_s) {
  if (interval_s <= 0) return std::nullopt;
  auto db = Database::open(path, Database::Mode::read_only);
  if (!db) return db.error();
  auto history = run_interval_s(*db.value());
  if (!history) return history.error();
  if (std::abs(*history - interval_s) <= 1e-9 * std::max(*history, interval_s)) return std::nullopt;
  const std::string was = core::format_duration(*history), now = core::format_duration(interval_s);
  return core::usage_error(fmt::format(
      "{}: a history sampled every {} and this monitor samples every {} (--interval {}); one history keeps one "
      "interval (its durations count samples x interval): restart with --interval {}, or give another --db",
      path, was, now, now, was));
}

std::optional<core::Error> write_segment(Database& db, std::int64_t started_unix_ms, double first_t_s,
                                         const std::string& telemetry_source) {
  int version = kSchemaVersion;
  if (auto e = check_schema(db, nullptr, &version)) return e;
  if (version == 4 || version == 5) {
    // The sample encoding is the same; the rollups and segments tables gain columns (rows already
    // there read as schema 4's) and the traffic tables are added. In the caller's transaction with
    // the segment: all of it or none.
    if (auto e = db.exec(schema_migration_sql(version))) {
      return e->with_context(fmt::format("migrating {} from schema {} to {}", db.path(), version, kSchemaVersion));
    }
    version = kSchemaVersion;
  }
  auto interval = run_interval_s(db);
  if (!interval) return interval.error();
  // A schema 3 history continued keeps its tables: segments without an interval column.
  const bool has_interval = version >= 5;
  auto st = db.prepare(has_interval ? "INSERT INTO segments (started_unix_ms, first_t_s, ended_t_s, telemetry_source, interval_s) "
                                      "VALUES (?,?,NULL,?,?)"
                                    : "INSERT INTO segments (started_unix_ms, first_t_s, ended_t_s, telemetry_source) VALUES (?,?,NULL,?)");
  if (!st) return st.error();
  st.value()->bind(1, static_cast<std::int64_t>(started_unix_ms));
  st.value()->bind(2, first_t_s);
  st.value()->bind(3, telemetry_source);
  if (has_interval) st.value()->bind(4, *interval);
  return st.value()->run();
}

}  // namespace gpuvet::telemetry
