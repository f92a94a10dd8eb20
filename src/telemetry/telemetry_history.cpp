// A long-lived history in the burn-in database (gpuvet monitor): reopening a monitor database to
// continue it after a restart, pruning what the retention no longer keeps, and the hourly rollups.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "telemetry/history_gpus.hpp"
#include "telemetry/sample_codec.hpp"
#include "telemetry/sqlite_db.hpp"
#include "telemetry/telemetry_schema.hpp"
#include "telemetry/telemetry_store.hpp"
#include "telemetry/writer_lock.hpp"

namespace gpuvet::telemetry {

namespace {

// SQLite's words in an error of Database/Statement ("PATH: WHAT: words").
std::string sqlite_words(const Database& db, const core::Error& e) {
  std::string words = e.message.substr(std::min(e.message.size(), db.path().size() + 2));
  if (const auto colon = words.find(": "); colon != std::string::npos) words = words.substr(colon + 2);
  return words;
}

// PRAGMA quick_check: a history whose pages are damaged is refused before anything is written
// into it (SQLite would go on writing around the damage). O(file size); docs/measurement.md.
std::optional<core::Error> check_not_corrupt(Database& db) {
  std::vector<std::string> problems;
  auto st = db.prepare("PRAGMA quick_check(5)");
  if (!st) {
    problems.push_back(sqlite_words(db, st.error()));
  } else {
    while (true) {
      auto row = st.value()->step();
      if (!row) {
        problems.push_back(sqlite_words(db, row.error()));
        break;
      }
      if (!row.value()) break;
      // One row may hold several problems, a line each, under "*** in database main ***".
      const std::string text = st.value()->get_text(0);
      if (text == "ok") continue;
      for (std::size_t from = 0; from < text.size();) {
        const std::size_t end = std::min(text.find('\n', from), text.size());
        const std::string line = text.substr(from, end - from);
        if (!line.empty() && line.rfind("***", 0) != 0) problems.push_back(line);
        from = end + 1;
      }
    }
  }
  if (problems.empty()) return std::nullopt;
  constexpr std::size_t kShown = 3;
  std::string said;
  for (std::size_t i = 0; i < problems.size() && i < kShown; ++i) said += (said.empty() ? "" : "; ") + problems[i];
  if (problems.size() > kShown) said += "; and more";
  return core::input_error(fmt::format("{}: a gpuvet monitor history that is corrupt (SQLite's quick_check: {}); left "
                                       "untouched: restore it from a backup, or move it away to start a new history",
                                       db.path(), said));
}

core::Result<std::vector<core::BurninGpu>> read_history_gpus(Database& db) {
  auto st = db.prepare(
      "SELECT idx, name, uuid, pci_bus_id, power_limit_w, shutdown_temp_c, slowdown_temp_c, max_sm_clock_mhz FROM gpus "
      "ORDER BY idx");
  if (!st) return st.error();
  std::vector<core::BurninGpu> out;
  const core::Absent unrecorded{"not recorded in the history"};
  while (true) {
    auto row = st.value()->step();
    if (!row) return row.error();
    if (!row.value()) return out;
    const Statement& s = *st.value();
    core::BurninGpu g;
    g.index = static_cast<int>(s.get_int(0));
    int col = 1;
    for (auto* text : {&g.name, &g.uuid, &g.pci_bus_id}) {
      const auto v = s.opt_text(col++);
      *text = v ? core::Reading<std::string>(*v) : core::Reading<std::string>(unrecorded);
    }
    for (auto* real : {&g.power_limit_w, &g.shutdown_temp_c, &g.slowdown_temp_c, &g.max_sm_clock_mhz}) {
      const auto v = s.opt_double(col++);
      *real = v ? core::Reading<double>(*v) : core::Reading<double>(unrecorded);
    }
    out.push_back(std::move(g));
  }
}

// Everything that refuses a history, through a read-only connection (Database::open read_only
// never changes a byte of the file nor adds one beside it): not a gpuvet database, not a monitor
// history, a schema this gpuvet does not write, damaged pages, other GPUs.
core::Result<HistoryGpuMatch> inspect_history(const std::string& path, const std::vector<core::BurninGpu>& gpus, int& version) {
  auto opened = Database::open(path, Database::Mode::read_only);
  if (!opened) return opened.error();
  Database& d = *opened.value();
  std::string purpose;
  if (auto e = check_schema(d, &purpose, &version)) return *e;
  if (purpose != "monitor") {
    return core::input_error(fmt::format("{}: a gpuvet {} database, not a monitor history; give another --db", path,
                                         purpose == "burnin" ? "burn-in" : purpose));
  }
  if (auto e = check_not_corrupt(d)) return *e;
  auto history = read_history_gpus(d);
  if (!history) return history.error();
  return match_history_gpus(path, history.value(), gpus);
}

template <class Bind>
std::optional<core::Error> run_sql(Database& db, const std::string& sql, Bind&& bind) {
  auto st = db.prepare(sql);
  if (!st) return st.error();
  bind(*st.value());
  return st.value()->run();
}

}  // namespace

core::Result<std::vector<core::BurninGpu>> read_monitor_history_gpus(const std::string& path) {
  // The first look of a monitor starting on an existing history: a daemon writing it already is
  // named at once, before its live file is read.
  if (auto e = WriterLock::check_free(path)) return *e;
  auto opened = Database::open(path, Database::Mode::read_only);
  if (!opened) return opened.error();
  Database& d = *opened.value();
  std::string purpose;
  int version = kSchemaVersion;
  if (auto e = check_schema(d, &purpose, &version)) return *e;
  if (purpose != "monitor") {
    return core::input_error(fmt::format("{}: a gpuvet {} database, not a monitor history; give another --db", path,
                                         purpose == "burnin" ? "burn-in" : purpose));
  }
  if (auto e = check_not_corrupt(d)) return *e;
  return read_history_gpus(d);
}

core::Result<HistoryGpuMatch> inspect_monitor_history(const std::string& path, const std::vector<core::BurninGpu>& gpus) {
  if (auto e = WriterLock::check_free(path)) return *e;
  int version = kSchemaVersion;
  return inspect_history(path, gpus, version);
}

core::Result<std::unique_ptr<TelemetryStore>> TelemetryStore::reopen(const std::string& path,
                                                                     const std::vector<core::BurninGpu>& gpus,
                                                                     const std::string& telemetry_source,
                                                                     platform::Clock& commit_clock, StoreOptions options,
                                                                     HistoryGpuMatch* match) {
  // Held from before the first look: nothing judged below can change under another writer.
  auto lock = WriterLock::acquire(path, commit_clock.unix_ms());
  if (!lock) return lock.error();
  int version = kSchemaVersion;
  auto matched = inspect_history(path, gpus, version);
  if (!matched) return matched.error();
  if (auto e = check_history_interval(path, options.interval_s)) return *e;
  auto opened = Database::open(path, Database::Mode::read_write);
  if (!opened) return opened.error();
  Database& d = *opened.value();
  // Every GPU of the history, present or not: retention prunes the rollups of a missing one too.
  auto history = read_history_gpus(d);
  if (!history) return history.error();
  auto run = d.prepare("SELECT started_unix_ms FROM run WHERE id = 1");
  if (!run) return run.error();
  auto row = run.value()->step();
  if (!row) return row.error();
  if (!row.value()) return core::input_error(fmt::format("{}: the run was never recorded", path));
  const std::int64_t started = run.value()->get_int(0);
  auto last = d.prepare("SELECT t_s FROM ticks ORDER BY rowid DESC LIMIT 1");
  if (!last) return last.error();
  auto last_row = last.value()->step();
  if (!last_row) return last_row.error();
  const double last_t_s = last_row.value() ? last.value()->get_double(0) : -1e300;

  if (auto e = d.exec("PRAGMA journal_mode=WAL")) return e->with_context("enabling WAL");
  if (auto e = d.exec(options.fsync_each_commit ? "PRAGMA synchronous=FULL" : "PRAGMA synchronous=NORMAL")) return *e;
  if (auto e = d.exec("BEGIN")) return *e;
  if (auto e = d.exec("UPDATE run SET status = 'running', ended_t_s = NULL WHERE id = 1")) return *e;
  if (auto e = write_segment(d, commit_clock.unix_ms(), std::max(0.0, last_t_s), telemetry_source)) return *e;
  if (auto e = d.exec("COMMIT")) return *e;

  std::unique_ptr<TelemetryStore> store(new TelemetryStore(std::move(lock).value(), std::move(opened).value(), commit_clock, options));
  if (auto e = store->prepare_statements()) return *e;
  store->started_unix_ms_ = started;
  store->last_t_s_ = last_t_s;
  store->keyframe_next_tick_ = true;  // the encoder does not know the last values of the file
  // An older history keeps its own encoding (and version): the fields it predates go unrecorded.
  store->encoder_ = std::make_unique<SampleEncoder>(encoded_fields_for_schema(version));
  for (const auto& g : history.value()) store->gpu_indices_.push_back(g.index);
  if (match) *match = std::move(matched).value();
  auto unsupported = store->db_->prepare("SELECT gpu, field FROM unsupported");
  if (!unsupported) return unsupported.error();
  while (true) {
    auto more = unsupported.value()->step();
    if (!more) return more.error();
    if (!more.value()) break;
    store->unsupported_.insert({static_cast<int>(unsupported.value()->get_int(0)), unsupported.value()->get_text(1)});
  }
  return store;
}

std::optional<core::Error> TelemetryStore::prune(const Retention& retention, double now_t_s) {
  if (auto e = begin()) return e;
  Database& d = *db_;
  // Raw samples: down to the newest keyframe at or before the cutoff, never past it.
  const double raw_cutoff = now_t_s - retention.raw_s;
  std::optional<std::pair<double, std::int64_t>> cut;
  while (!keyframes_.empty() && keyframes_.front().first <= raw_cutoff) {
    cut = keyframes_.front();
    if (keyframes_.size() == 1 || keyframes_[1].first > raw_cutoff) break;
    keyframes_.pop_front();
  }
  if (cut) {
    // Plain copies: clang 14 (the fuzz build) cannot capture structured bindings in a lambda.
    const double cut_s = cut->first;
    const auto cut_rowid = cut->second;
    if (auto e = run_sql(d, "DELETE FROM ticks WHERE rowid < ?", [&](Statement& s) { s.bind(1, cut_rowid); })) return e;
    if (auto e = run_sql(d, "DELETE FROM sample_absences WHERE t_s < ?", [&](Statement& s) { s.bind(1, cut_s); })) return e;
    // Each link keeps its newest row before the cut: the counters the first kept sample reads.
    if (auto e = run_sql(d,
                         "DELETE FROM nvlink WHERE t_s < ?1 AND rowid NOT IN "
                         "(SELECT max(rowid) FROM nvlink WHERE t_s < ?1 GROUP BY gpu, link)",
                         [&](Statement& s) { s.bind(1, cut_s); })) {
      return e;
    }
  }
  const auto minute_cut = static_cast<std::int64_t>(std::floor((now_t_s - retention.minute_s) / 60));
  const auto hour_cut = static_cast<std::int64_t>(std::floor((now_t_s - retention.hour_s) / 3600));
  for (int gpu : gpu_indices_) {
    // By (gpu, minute) and (gpu, hour): the primary keys, so no table scan.
    const auto bind = [&](std::int64_t cut_value) {
      return [&, cut_value](Statement& s) {
        s.bind(1, static_cast<std::int64_t>(gpu));
        s.bind(2, cut_value);
      };
    };
    if (auto e = run_sql(d, "DELETE FROM rollups WHERE gpu = ? AND minute < ?", bind(minute_cut))) return e;
    if (auto e = run_sql(d, "DELETE FROM hourly_rollups WHERE gpu = ? AND hour < ?", bind(hour_cut))) return e;
  }
  return run_sql(d, "DELETE FROM events WHERE t_s < ?", [&](Statement& s) { s.bind(1, now_t_s - retention.hour_s); });
}

std::optional<core::Error> read_hour_rollups(Database& db, const std::function<void(const HourRollup&)>& visit) {
  auto st = db.prepare(fmt::format("SELECT {} FROM hourly_rollups ORDER BY gpu, hour", kHourRollupColumns));
  if (!st) return st.error();
  while (true) {
    auto more = st.value()->step();
    if (!more) return more.error();
    if (!more.value()) return std::nullopt;
    visit(read_hour_rollup(*st.value()));
  }
}

std::optional<core::Error> TelemetryStore::for_each_hour_rollup(const std::function<void(const HourRollup&)>& visit) {
  if (auto e = commit()) return e;
  return read_hour_rollups(*db_, visit);
}

std::optional<core::Error> read_hour_rollups(const std::string& path, const std::function<void(const HourRollup&)>& visit) {
  auto db = Database::open(path, Database::Mode::read_only);
  if (!db) return db.error();
  if (auto e = check_schema(*db.value())) return e->with_context("reading hourly rollups");
  // Schema 2 (burn-ins before the monitor) has no hourly rollups: none to read.
  auto probe = db.value()->prepare("SELECT 1 FROM sqlite_master WHERE name = 'hourly_rollups'");
  if (!probe) return probe.error();
  auto has = probe.value()->step();
  if (!has) return has.error();
  if (!has.value()) return std::nullopt;
  if (auto e = read_hour_rollups(*db.value(), visit)) return e->with_context("reading hourly rollups");
  return std::nullopt;
}

}  // namespace gpuvet::telemetry
