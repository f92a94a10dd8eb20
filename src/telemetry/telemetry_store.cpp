// Writes the burn-in database: run and GPUs at creation, then samples (a row per tick), events
// and per-minute and per-hour rollups in batched transactions; each process's segment.
#include "telemetry/telemetry_store.hpp"

#include <fmt/format.h>

#include <cmath>

#include "telemetry/sample_codec.hpp"
#include "telemetry/sqlite_db.hpp"
#include "telemetry/telemetry_schema.hpp"
#include "telemetry/traffic_table.hpp"
#include "telemetry/writer_lock.hpp"

namespace gpuvet::telemetry {

namespace {

std::string join_lines(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& s : items) out += (out.empty() ? "" : "\n") + s;
  return out;
}

template <class T>
void bind_reading(Statement& st, int index, const core::Reading<T>& r) {
  if (!r.known()) {
    st.bind_null(index);
  } else if constexpr (std::is_floating_point_v<T>) {
    st.bind(index, static_cast<double>(r.value()));
  } else if constexpr (std::is_same_v<T, std::string>) {
    st.bind(index, r.value());
  } else {
    st.bind(index, static_cast<std::int64_t>(r.value()));
  }
}

constexpr const char* kInsertUnsupported = "INSERT OR REPLACE INTO unsupported (gpu, field, reason) VALUES (?,?,?)";

// One row of kInsertUnsupported.
std::optional<core::Error> insert_unsupported(Statement& st, const core::UnsupportedField& field) {
  st.bind(1, static_cast<std::int64_t>(field.gpu));
  st.bind(2, field.field);
  st.bind(3, field.reason);
  return st.run();
}

std::optional<core::Error> write_run(Database& db, const core::BurninRunInfo& run, const std::vector<core::BurninGpu>& gpus) {
  auto st = db.prepare(
      "INSERT INTO run (id, source, simulated, hostname, dtype, faults, interval_s, planned_duration_s, "
      "started_unix_ms, status, ended_t_s, stress_backend, telemetry_source) VALUES (1,?,?,?,?,?,?,?,?,?,NULL,?,?)");
  if (!st) return st.error();
  auto& s = *st.value();
  s.bind(1, run.source);
  s.bind(2, std::int64_t{run.simulated ? 1 : 0});
  s.bind(3, run.hostname);
  s.bind(4, run.dtype);
  s.bind(5, join_lines(run.faults));
  s.bind(6, run.interval_s);
  s.bind(7, run.planned_duration_s);
  s.bind(8, static_cast<std::int64_t>(run.started_unix_ms));
  s.bind(9, std::string(core::to_string(core::BurninStatus::running)));
  s.bind(10, run.stress_backend);
  s.bind(11, run.telemetry_source);
  if (auto e = s.run()) return e;
  auto g = db.prepare(insert_sql("gpus", gpu_columns()));
  if (!g) return g.error();
  auto u = db.prepare(kInsertUnsupported);
  if (!u) return u.error();
  for (const auto& gpu : gpus) {
    auto& q = *g.value();
    q.bind(1, static_cast<std::int64_t>(gpu.index));
    int col = 2;
    for_each_gpu_field([&](std::string_view, auto member) { bind_reading(q, col++, gpu.*member); });
    if (auto e = q.run()) return e;
    // Why an identity or limit is unknown, under the same table as unsupported fields.
    std::vector<core::UnsupportedField> absent;
    for_each_gpu_field([&](std::string_view name, auto member) {
      std::string reason = (gpu.*member).reason();
      if (!reason.empty()) absent.push_back({gpu.index, std::string(kGpuFieldPrefix) + std::string(name), std::move(reason)});
    });
    for (const auto& field : absent) {
      if (auto e = insert_unsupported(*u.value(), field)) return e;
    }
  }
  return std::nullopt;
}

}  // namespace

TelemetryStore::TelemetryStore(std::unique_ptr<WriterLock> lock, std::unique_ptr<Database> db, platform::Clock& clock,
                               StoreOptions options)
    : lock_(std::move(lock)),
      db_(std::move(db)), clock_(clock), options_(options), encoder_(std::make_unique<SampleEncoder>()) {}

TelemetryStore::~TelemetryStore() {
  // Whatever was appended is kept; a run that never called finish() stays "running" (a crash).
  if (tick_open_ && !begin()) (void)flush_tick();
  if (in_transaction_) (void)db_->exec("COMMIT");
}

const std::string& TelemetryStore::path() const { return db_->path(); }

core::Result<std::unique_ptr<TelemetryStore>> TelemetryStore::create(const std::string& path, const core::BurninRunInfo& run,
                                                                     const std::vector<core::BurninGpu>& gpus,
                                                                     platform::Clock& commit_clock, StoreOptions options) {
  const bool memory = path == ":memory:";
  // Taken before the file is made: of two runs started on one path, the second is told who writes it.
  std::unique_ptr<WriterLock> lock;
  if (!memory) {
    auto locked = WriterLock::acquire(path, commit_clock.unix_ms());
    if (!locked) return locked.error();
    lock = std::move(locked).value();
  }
  auto db = Database::open(path, Database::Mode::create);
  if (!db) return db.error();
  Database& d = *db.value();
  if (!memory) {
    if (auto e = d.exec("PRAGMA journal_mode=WAL")) return e->with_context("enabling WAL");
  }
  // A private temporary database has nothing to keep across a crash.
  const char* sync = memory ? "PRAGMA synchronous=OFF" : options.fsync_each_commit ? "PRAGMA synchronous=FULL" : "PRAGMA synchronous=NORMAL";
  if (auto e = d.exec(sync)) return *e;
  if (auto e = d.exec("BEGIN")) return *e;
  if (auto e = d.exec(schema_sql(options.purpose))) return e->with_context("creating the schema");
  if (auto e = write_run(d, run, gpus)) return e->with_context("recording the run");
  if (auto e = write_segment(d, run.started_unix_ms, 0, run.telemetry_source)) return e->with_context("recording the run");
  if (auto e = write_traffic_settings(d, run.traffic)) return e->with_context("recording the run");
  if (auto e = d.exec("COMMIT")) return *e;

  std::unique_ptr<TelemetryStore> store(new TelemetryStore(std::move(lock), std::move(db).value(), commit_clock, options));
  if (auto e = store->prepare_statements()) return *e;
  store->started_unix_ms_ = run.started_unix_ms;
  for (const auto& g : gpus) store->gpu_indices_.push_back(g.index);
  return store;
}

std::optional<core::Error> TelemetryStore::prepare_statements() {
  if (auto e = check_schema(*db_, nullptr, &table_version_)) return e;
  auto s = db_->prepare("INSERT INTO ticks (t_s, unix_ms, data) VALUES (?,?,?)");
  auto n = db_->prepare(insert_sql("nvlink", nvlink_columns()));
  auto e = db_->prepare("INSERT INTO events (gpu, t_s, kind, code, message) VALUES (?,?,?,?,?)");
  auto a = db_->prepare("INSERT INTO sample_absences (gpu, t_s, field, reason) VALUES (?,?,?,?)");
  auto r = db_->prepare(minute_rollup_upsert_sql(table_version_));
  auto h = db_->prepare(hour_rollup_upsert_sql());
  for (auto* st : {&s, &n, &e, &a, &r, &h}) {
    if (!*st) return st->error();
  }
  insert_tick_ = std::move(s).value();
  upsert_minute_ = std::move(r).value();
  insert_nvlink_ = std::move(n).value();
  insert_event_ = std::move(e).value();
  insert_absence_ = std::move(a).value();
  upsert_hour_ = std::move(h).value();
  if (table_version_ >= 6) {
    auto t = TrafficWriter::prepare(*db_);
    if (!t) return t.error();
    traffic_ = std::move(t).value();
  }
  last_commit_ = clock_.now();
  return std::nullopt;
}

std::optional<core::Error> TelemetryStore::begin() {
  if (in_transaction_) return std::nullopt;
  if (auto e = db_->exec("BEGIN")) return e;
  in_transaction_ = true;
  return std::nullopt;
}

std::optional<core::Error> TelemetryStore::commit() {
  if (tick_open_) {
    if (auto e = begin()) return e;
    if (auto e = flush_tick()) return e;
  }
  if (in_transaction_) {
    if (auto e = db_->exec("COMMIT")) return e;
    in_transaction_ = false;
    ++commits_;
  }
  last_commit_ = clock_.now();
  return std::nullopt;
}

std::optional<core::Error> TelemetryStore::end_tick() {
  if (tick_open_) {
    if (auto e = begin()) return e;
    if (auto e = flush_tick()) return e;
  }
  // Commit a little early: the next tick may come a whole interval later, and what was appended
  // now must not wait past max_commit_lag.
  if (clock_.now() - last_commit_ >= options_.max_commit_lag / 2) return commit();
  return std::nullopt;
}

std::optional<core::Error> TelemetryStore::record_unsupported(const std::vector<core::UnsupportedField>& fields) {
  if (auto e = begin()) return e;
  auto st = db_->prepare(kInsertUnsupported);
  if (!st) return st.error();
  for (const auto& f : fields) {
    unsupported_.insert({f.gpu, f.field});
    if (auto e = insert_unsupported(*st.value(), f)) return e;
  }
  return commit();
}

std::optional<core::Error> TelemetryStore::append(const core::TelemetrySample& sample) {
  if (sample.t_s < last_t_s_) {
    return core::internal_error(fmt::format("{}: sample of GPU {} at {} s appended after one at {} s", path(), sample.gpu,
                                            sample.t_s, last_t_s_));
  }
  if (auto e = begin()) return e;
  if (tick_open_ && sample.t_s != tick_s_) {
    if (auto e = flush_tick()) return e;
  }
  if (!tick_open_) {
    tick_open_ = true;
    tick_is_keyframe_ = keyframe_next_tick_ ||
                        (options_.keyframe_every_s > 0 && sample.t_s - last_keyframe_s_ >= options_.keyframe_every_s);
    if (tick_is_keyframe_) {
      encoder_->reset();
      keyframe_next_tick_ = false;
      last_keyframe_s_ = sample.t_s;
    }
    tick_s_ = sample.t_s;
    tick_unix_ms_ = sample.unix_ms;
    tick_data_.clear();
  }
  last_t_s_ = sample.t_s;
  std::vector<std::pair<std::string_view, std::string>> absent;
  encoder_->encode(sample, tick_unix_ms_, tick_data_, absent);
  for (const auto& [field, reason] : absent) {
    if (unsupported_.count({sample.gpu, std::string(field)})) continue;
    Statement& a = *insert_absence_;
    a.bind(1, static_cast<std::int64_t>(sample.gpu));
    a.bind(2, sample.t_s);
    a.bind(3, std::string(field));
    a.bind(4, reason);
    if (auto e = a.run()) return e;
  }
  if (auto e = roll_up(sample)) return e;
  return write_nvlink(sample);
}

std::optional<core::Error> TelemetryStore::flush_tick() {
  if (!tick_open_) return std::nullopt;
  tick_open_ = false;
  Statement& t = *insert_tick_;
  t.bind(1, tick_s_);
  t.bind(2, tick_unix_ms_);
  t.bind_blob(3, tick_data_);
  if (auto e = t.run()) return e;
  if (tick_is_keyframe_) keyframes_.emplace_back(tick_s_, db_->last_insert_rowid());
  return std::nullopt;
}

std::optional<core::Error> TelemetryStore::roll_up(const core::TelemetrySample& s) {
  if (auto minute = minutes_.try_emplace(s.gpu, 60.0).first->second.add(s)) {
    if (auto e = write_minute_rollup(*minute)) return e;
  }
  if (auto hour = hours_.try_emplace(s.gpu, 3600.0).first->second.add(s)) {
    if (auto e = write_hour_rollup(*hour)) return e;
  }
  return std::nullopt;
}

std::optional<core::Error> TelemetryStore::write_minute_rollup(const PeriodAccumulator::Closed& minute) {
  MinuteRollup r;
  static_cast<PeriodRollup&>(r) = minute.rollup;
  r.minute = minute.period;
  bind_minute_rollup(*upsert_minute_, r, table_version_);
  return upsert_minute_->run();
}

std::optional<core::Error> TelemetryStore::write_hour_rollup(const PeriodAccumulator::Closed& hour) {
  HourRollup r;
  static_cast<PeriodRollup&>(r) = hour.rollup;
  r.hour = hour.period;
  bind_hour_rollup(*upsert_hour_, r);
  return upsert_hour_->run();
}

std::optional<core::Error> TelemetryStore::write_nvlink(const core::TelemetrySample& sample) {
  if (!sample.nvlink.known()) return std::nullopt;
  for (const auto& link : sample.nvlink.value()) {
    const auto key = std::make_pair(sample.gpu, link.link);
    auto it = last_nvlink_.find(key);
    if (it != last_nvlink_.end() && it->second == link) continue;
    Statement& n = *insert_nvlink_;
    n.bind(1, static_cast<std::int64_t>(sample.gpu));
    n.bind(2, sample.t_s);
    n.bind(3, static_cast<std::int64_t>(link.link));
    int col = 4;
    for_each_field([&](std::string_view, auto member) { bind_reading(n, col++, link.*member); }, kNvlinkCounters);
    if (auto e = n.run()) return e;
    last_nvlink_[key] = link;
  }
  return std::nullopt;
}

std::optional<core::Error> TelemetryStore::append(const core::TelemetryEvent& event) {
  if (auto e = begin()) return e;
  Statement& s = *insert_event_;
  s.bind(1, static_cast<std::int64_t>(event.gpu));
  s.bind(2, event.t_s);
  s.bind(3, std::string(core::to_string(event.kind)));
  s.bind(4, static_cast<std::int64_t>(event.code));
  s.bind(5, event.message);
  return s.run();
}

std::optional<core::Error> TelemetryStore::append(const core::TrafficInterval& interval) {
  if (!traffic_) return core::internal_error(fmt::format("{}: a schema {} history has no traffic tables", path(), table_version_));
  if (auto e = begin()) return e;
  return traffic_->append(interval);
}

std::optional<core::Error> TelemetryStore::finish(core::BurninStatus status, double ended_t_s) {
  if (auto e = begin()) return e;
  if (auto e = flush_tick()) return e;
  // Each GPU's open minute and hour: a sample of a later one closes them.
  for (auto& [gpu, m] : minutes_) {
    if (auto minute = m.take()) {
      if (auto e = write_minute_rollup(*minute)) return e;
    }
  }
  for (auto& [gpu, h] : hours_) {
    if (auto hour = h.take()) {
      if (auto e = write_hour_rollup(*hour)) return e;
    }
  }
  auto st = db_->prepare("UPDATE run SET status = ?, ended_t_s = ? WHERE id = 1");
  if (!st) return st.error();
  st.value()->bind(1, std::string(core::to_string(status)));
  st.value()->bind(2, ended_t_s);
  if (auto e = st.value()->run()) return e;
  auto seg = db_->prepare("UPDATE segments SET ended_t_s = ? WHERE rowid = (SELECT max(rowid) FROM segments)");
  if (!seg) return seg.error();
  seg.value()->bind(1, ended_t_s);
  if (auto e = seg.value()->run()) return e;
  return commit();
}

}  // namespace gpuvet::telemetry
