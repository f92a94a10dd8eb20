// Reads a burn-in database back into a BurninRecord: NULLs become absences with the reason the
// writer recorded (unsupported once per GPU, or a read failure at that tick).
#include <fmt/format.h>

#include <map>
#include <tuple>

#include "telemetry/sqlite_db.hpp"
#include "telemetry/telemetry_schema.hpp"
#include "telemetry/telemetry_store.hpp"

namespace gpuvet::telemetry {

namespace {

using Reasons = std::map<std::pair<int, std::string>, std::string>;
using TickReasons = std::map<std::tuple<int, double, std::string>, std::string>;

struct AbsenceLookup {
  const Reasons& unsupported;
  const TickReasons& at_tick;
  std::string reason(int gpu, double t_s, std::string_view field) const {
    auto it = at_tick.find({gpu, t_s, std::string(field)});
    if (it != at_tick.end()) return it->second;
    auto u = unsupported.find({gpu, std::string(field)});
    if (u != unsupported.end()) return u->second;
    return "not recorded";
  }
};

template <class T>
core::Reading<T> reading_from(const Statement& st, int column, const std::string& absent_reason) {
  if (st.is_null(column)) return core::Reading<T>::absent(absent_reason);
  if constexpr (std::is_floating_point_v<T>) {
    return static_cast<T>(st.get_double(column));
  } else if constexpr (std::is_same_v<T, std::string>) {
    return st.get_text(column);
  } else if constexpr (std::is_same_v<T, bool>) {
    return st.get_int(column) != 0;
  } else {
    return static_cast<T>(st.get_int(column));
  }
}

// As reading_from, computing the absence reason only for a NULL.
template <class T, class Reason>
core::Reading<T> reading_lazy(const Statement& st, int column, Reason&& reason) {
  if (st.is_null(column)) return core::Reading<T>::absent(reason());
  return reading_from<T>(st, column, std::string());
}

std::optional<core::Error> check_schema(Database& db) {
  auto st = db.prepare("SELECT value FROM meta WHERE key = 'schema_version'");
  if (!st) return core::input_error(fmt::format("{}: not a gpuvet burn-in database", db.path()));
  auto row = st.value()->step();
  if (!row || !row.value()) return core::input_error(fmt::format("{}: not a gpuvet burn-in database (no schema version)", db.path()));
  const std::string version = st.value()->get_text(0);
  if (version != std::to_string(kSchemaVersion)) {
    return core::input_error(fmt::format("{}: burn-in database schema version {}, this gpuvet reads version {}",
                                         db.path(), version, kSchemaVersion));
  }
  return std::nullopt;
}

std::optional<core::Error> read_run(Database& db, core::BurninRunInfo& run) {
  auto st = db.prepare(
      "SELECT source, simulated, hostname, dtype, faults, interval_s, planned_duration_s, started_unix_ms, status, "
      "ended_t_s, stress_backend, telemetry_source FROM run WHERE id = 1");
  if (!st) return st.error();
  auto& s = *st.value();
  auto row = s.step();
  if (!row) return row.error();
  if (!row.value()) return core::input_error(fmt::format("{}: the run was never recorded", db.path()));
  run.source = s.get_text(0);
  run.simulated = s.get_int(1) != 0;
  run.hostname = s.get_text(2);
  run.dtype = s.get_text(3);
  run.faults.clear();
  std::string faults = s.get_text(4);
  for (std::size_t start = 0; start < faults.size();) {
    auto end = faults.find('\n', start);
    if (end == std::string::npos) end = faults.size();
    run.faults.push_back(faults.substr(start, end - start));
    start = end + 1;
  }
  run.interval_s = s.get_double(5);
  run.planned_duration_s = s.get_double(6);
  run.started_unix_ms = s.get_int(7);
  if (!core::parse_burnin_status(s.get_text(8), run.status)) {
    return core::input_error(fmt::format("{}: unknown run status '{}'", db.path(), s.get_text(8)));
  }
  run.ended_t_s = reading_from<double>(s, 9, "the run did not finish (killed or still running)");
  run.stress_backend = s.get_text(10);
  run.telemetry_source = s.get_text(11);
  return std::nullopt;
}

}  // namespace

core::Result<core::BurninRecord> read_record(Database& db) {
  if (auto e = check_schema(db)) return *e;
  core::BurninRecord record;
  if (auto e = read_run(db, record.run)) return *e;

  Reasons unsupported;
  {
    auto st = db.prepare("SELECT gpu, field, reason FROM unsupported ORDER BY gpu, field");
    if (!st) return st.error();
    while (true) {
      auto row = st.value()->step();
      if (!row) return row.error();
      if (!row.value()) break;
      const int gpu = static_cast<int>(st.value()->get_int(0));
      std::string field = st.value()->get_text(1);
      std::string reason = st.value()->get_text(2);
      if (field.rfind("gpu.", 0) != 0) record.unsupported.push_back({gpu, field, reason});
      unsupported[{gpu, std::move(field)}] = std::move(reason);
    }
  }
  const auto gpu_reason = [&](int gpu, const char* field) {
    auto it = unsupported.find({gpu, std::string("gpu.") + field});
    return it == unsupported.end() ? std::string("not recorded") : it->second;
  };
  {
    auto st = db.prepare(
        "SELECT idx, name, uuid, pci_bus_id, power_limit_w, shutdown_temp_c, slowdown_temp_c, max_sm_clock_mhz "
        "FROM gpus ORDER BY idx");
    if (!st) return st.error();
    auto& s = *st.value();
    while (true) {
      auto row = s.step();
      if (!row) return row.error();
      if (!row.value()) break;
      core::BurninGpu g;
      g.index = static_cast<int>(s.get_int(0));
      g.name = reading_from<std::string>(s, 1, gpu_reason(g.index, "name"));
      g.uuid = reading_from<std::string>(s, 2, gpu_reason(g.index, "uuid"));
      g.pci_bus_id = reading_from<std::string>(s, 3, gpu_reason(g.index, "pci_bus_id"));
      g.power_limit_w = reading_from<double>(s, 4, gpu_reason(g.index, "power_limit_w"));
      g.shutdown_temp_c = reading_from<double>(s, 5, gpu_reason(g.index, "shutdown_temp_c"));
      g.slowdown_temp_c = reading_from<double>(s, 6, gpu_reason(g.index, "slowdown_temp_c"));
      g.max_sm_clock_mhz = reading_from<double>(s, 7, gpu_reason(g.index, "max_sm_clock_mhz"));
      record.gpus.push_back(std::move(g));
    }
  }
  TickReasons at_tick;
  {
    auto st = db.prepare("SELECT gpu, t_s, field, reason FROM sample_absences");
    if (!st) return st.error();
    while (true) {
      auto row = st.value()->step();
      if (!row) return row.error();
      if (!row.value()) break;
      at_tick[{static_cast<int>(st.value()->get_int(0)), st.value()->get_double(1), st.value()->get_text(2)}] =
          st.value()->get_text(3);
    }
  }
  // NVLink rows in time order; each sample sees, per link, the last row at or before it.
  std::vector<std::tuple<int, double, core::NvLinkErrorSample>> nvlink_rows;
  {
    auto st = db.prepare("SELECT gpu, t_s, link, crc_flit, crc_data, replay, recovery FROM nvlink ORDER BY t_s, gpu, link");
    if (!st) return st.error();
    auto& s = *st.value();
    while (true) {
      auto row = s.step();
      if (!row) return row.error();
      if (!row.value()) break;
      core::NvLinkErrorSample l;
      l.link = static_cast<int>(s.get_int(2));
      l.crc_flit = reading_from<std::uint64_t>(s, 3, "not supported on this link");
      l.crc_data = reading_from<std::uint64_t>(s, 4, "not supported on this link");
      l.replay = reading_from<std::uint64_t>(s, 5, "not supported on this link");
      l.recovery = reading_from<std::uint64_t>(s, 6, "not supported on this link");
      nvlink_rows.emplace_back(static_cast<int>(s.get_int(0)), s.get_double(1), std::move(l));
    }
  }
  const AbsenceLookup lookup{unsupported, at_tick};
  {
    auto st = db.prepare(fmt::format("SELECT {} FROM samples ORDER BY t_s, gpu", sample_columns()));
    if (!st) return st.error();
    auto& s = *st.value();
    std::map<int, std::map<int, core::NvLinkErrorSample>> links;  // gpu -> link -> current
    std::size_t next_row = 0;
    while (true) {
      auto row = s.step();
      if (!row) return row.error();
      if (!row.value()) break;
      core::TelemetrySample sample;
      sample.gpu = static_cast<int>(s.get_int(0));
      sample.t_s = s.get_double(1);
      sample.unix_ms = s.get_int(2);
      int col = 3;
      for (const auto& [name, member] : kRealFields) {
        sample.*member = reading_lazy<double>(s, col++, [&] { return lookup.reason(sample.gpu, sample.t_s, name); });
      }
      for (const auto& [name, member] : kCountFields) {
        sample.*member = reading_lazy<std::uint64_t>(s, col++, [&] { return lookup.reason(sample.gpu, sample.t_s, name); });
      }
      for (const auto& [name, member] : kIntFields) {
        sample.*member = reading_lazy<int>(s, col++, [&] { return lookup.reason(sample.gpu, sample.t_s, name); });
      }
      for (const auto& [name, member] : kBoolFields) {
        sample.*member = reading_lazy<bool>(s, col++, [&] { return lookup.reason(sample.gpu, sample.t_s, name); });
      }
      while (next_row < nvlink_rows.size() && std::get<1>(nvlink_rows[next_row]) <= sample.t_s) {
        const auto& [gpu, t, link] = nvlink_rows[next_row++];
        links[gpu][link.link] = link;
      }
      if (s.is_null(col)) {
        sample.nvlink = core::Reading<std::vector<core::NvLinkErrorSample>>::absent(
            lookup.reason(sample.gpu, sample.t_s, kNvlinkField));
      } else {
        std::vector<core::NvLinkErrorSample> v;
        for (const auto& [index, link] : links[sample.gpu]) v.push_back(link);
        sample.nvlink = std::move(v);
      }
      record.samples.push_back(std::move(sample));
    }
  }
  {
    auto st = db.prepare("SELECT gpu, t_s, kind, code, message FROM events ORDER BY t_s, rowid");
    if (!st) return st.error();
    auto& s = *st.value();
    while (true) {
      auto row = s.step();
      if (!row) return row.error();
      if (!row.value()) break;
      core::TelemetryEvent e;
      e.gpu = static_cast<int>(s.get_int(0));
      e.t_s = s.get_double(1);
      if (!core::parse_telemetry_event_kind(s.get_text(2), e.kind)) {
        return core::input_error(fmt::format("{}: unknown event kind '{}'", db.path(), s.get_text(2)));
      }
      e.code = static_cast<int>(s.get_int(3));
      e.message = s.get_text(4);
      record.events.push_back(std::move(e));
    }
  }
  return record;
}

core::Result<core::BurninRecord> TelemetryStore::read_back() {
  if (auto e = commit()) return *e;
  return read_record(*db_);
}

core::Result<core::BurninRecord> load_burnin(const std::string& path) {
  // Read-write open so SQLite can replay the WAL of a run that was killed; nothing is written.
  auto db = Database::open(path, Database::Mode::read_write);
  if (!db) return db.error();
  auto record = read_record(*db.value());
  if (!record) return record.error().with_context("reading burn-in database");
  return record;
}

}  // namespace gpuvet::telemetry
