// read_history: the span from aggregate queries, then read_record and read_hour_rollups over the
// same connection.
#include "telemetry/history_reader.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "telemetry/sqlite_db.hpp"

namespace gpuvet::telemetry {

namespace {

core::Result<bool> has_table(Database& db, const std::string& name) {
  auto st = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '" + name + "'");
  if (!st) return st.error();
  return st.value()->step();
}

// Widens `span` by a rollup table whose `unit_ms` steps count from the run start: from the start
// of its first step to the mean time of its last one's samples (a rollup holds no later time).
std::optional<core::Error> widen(Database& db, const std::string& table, const std::string& column, std::int64_t unit_ms,
                                 HistorySpan& span) {
  auto st = db.prepare(fmt::format("SELECT MIN({0}), MAX(t_s), (SELECT started_unix_ms FROM run WHERE id = 1) FROM {1}", column, table));
  if (!st) return st.error();
  if (auto row = st.value()->step(); !row) return row.error();
  const auto& r = *st.value();
  if (r.is_null(0) || r.is_null(2)) return std::nullopt;
  const std::int64_t started = r.get_int(2);
  const std::int64_t first = started + r.get_int(0) * unit_ms;
  const std::int64_t last = started + static_cast<std::int64_t>(r.get_double(1) * 1000);
  span.first_unix_ms = std::min(span.first_unix_ms.value_or(first), first);
  span.last_unix_ms = std::max(span.last_unix_ms.value_or(last), last);
  return std::nullopt;
}

core::Result<HistorySpan> span_of(Database& db, bool hourly) {
  HistorySpan span;
  auto ticks = db.prepare("SELECT MIN(unix_ms), MAX(unix_ms) FROM ticks");
  if (!ticks) return ticks.error();
  if (auto row = ticks.value()->step(); !row) return row.error();
  span.first_raw_unix_ms = ticks.value()->opt_int(0);
  span.first_unix_ms = span.first_raw_unix_ms;
  span.last_unix_ms = ticks.value()->opt_int(1);
  if (auto e = widen(db, "rollups", "minute", 60000, span)) return *e;
  if (hourly) {
    if (auto e = widen(db, "hourly_rollups", "hour", 3600000, span)) return *e;
  }
  return span;
}

}  // namespace

core::Result<core::BurninRecord> read_history(const std::string& path, const HistorySinks& sinks) {
  auto opened = Database::open(path, Database::Mode::read_only);
  if (!opened) return opened.error();
  Database& db = *opened.value();
  if (auto e = check_schema(db)) return e->with_context("reading history database");
  auto hourly = has_table(db, "hourly_rollups");  // schema 2 (burn-ins before the monitor) has none
  if (!hourly) return hourly.error();
  auto span = span_of(db, *hourly);
  if (!span) return span.error().with_context(fmt::format("{}: reading the time the history spans", path));
  if (sinks.on_span) sinks.on_span(*span);
  std::int64_t started_unix_ms = 0;
  auto record = read_record(
      db,
      [&](const core::BurninRecord& header) {
        started_unix_ms = header.run.started_unix_ms;
        if (sinks.on_header) sinks.on_header(header);
      },
      sinks.on_sample ? sinks.on_sample : SampleSink([](const core::TelemetrySample&) {}));
  if (!record) return record.error().with_context("reading history database");
  if (sinks.on_hour_rollup && *hourly) {
    auto e = read_hour_rollups(db, [&](const HourRollup& r) { sinks.on_hour_rollup(r, started_unix_ms + r.hour * 3600000); });
    if (e) return e->with_context(fmt::format("{}: reading the hourly rollups", path));
  }
  return record;
}

}  // namespace gpuvet::telemetry
