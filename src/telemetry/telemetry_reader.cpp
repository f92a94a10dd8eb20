// Reads a burn-in database back into a BurninRecord: NULLs become absences with the reason the
// writer recorded (unsupported once per GPU, or a read failure at that tick).
#include <fmt/format.h>

#include <map>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <vector>

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

// Reads `column` into `out`; a NULL becomes an absence with reason(), computed only then.
template <class T, class Reason>
void read_column(const Statement& st, int column, core::Reading<T>& out, Reason&& reason) {
  if (st.is_null(column)) {
    out = core::Reading<T>::absent(reason());
  } else if constexpr (std::is_floating_point_v<T>) {
    out = static_cast<T>(st.get_double(column));
  } else if constexpr (std::is_same_v<T, std::string>) {
    out = st.get_text(column);
  } else if constexpr (std::is_same_v<T, bool>) {
    out = st.get_int(column) != 0;
  } else {
    out = static_cast<T>(st.get_int(column));
  }
}

// Runs `sql` and hands each row to `row`; a row that returns an error stops the walk.
template <class Row>
std::optional<core::Error> for_each_row(Database& db, const std::string& sql, Row&& row) {
  auto st = db.prepare(sql);
  if (!st) return st.error();
  Statement& s = *st.value();
  while (true) {
    auto more = s.step();
    if (!more) return more.error();
    if (!more.value()) return std::nullopt;
    if constexpr (std::is_void_v<std::invoke_result_t<Row&, const Statement&>>) {
      row(s);
    } else if (auto e = row(s)) {
      return e;
    }
  }
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
  read_column(s, 9, run.ended_t_s, [] { return "the run did not finish (killed or still running)"; });
  run.stress_backend = s.get_text(10);
  run.telemetry_source = s.get_text(11);
  return std::nullopt;
}

// What each GPU does not support: sample fields go to record.unsupported, all (GPU identity and
// limits too, under kGpuFieldPrefix) to `reasons`.
std::optional<core::Error> read_unsupported(Database& db, core::BurninRecord& record, Reasons& reasons) {
  return for_each_row(db, "SELECT gpu, field, reason FROM unsupported ORDER BY gpu, field", [&](const Statement& s) {
    const int gpu = static_cast<int>(s.get_int(0));
    std::string field = s.get_text(1);
    std::string reason = s.get_text(2);
    if (field.rfind(kGpuFieldPrefix, 0) != 0) record.unsupported.push_back({gpu, field, reason});
    reasons[{gpu, std::move(field)}] = std::move(reason);
  });
}

std::optional<core::Error> read_gpus(Database& db, const Reasons& unsupported, std::vector<core::BurninGpu>& gpus) {
  return for_each_row(db, fmt::format("SELECT {} FROM gpus ORDER BY idx", gpu_columns()), [&](const Statement& s) {
    core::BurninGpu g;
    g.index = static_cast<int>(s.get_int(0));
    int col = 1;
    for_each_gpu_field([&](std::string_view name, auto member) {
      read_column(s, col++, g.*member, [&] {
        auto it = unsupported.find({g.index, std::string(kGpuFieldPrefix) + std::string(name)});
        return it == unsupported.end() ? std::string("not recorded") : it->second;
      });
    });
    gpus.push_back(std::move(g));
  });
}

std::optional<core::Error> read_tick_reasons(Database& db, TickReasons& at_tick) {
  return for_each_row(db, "SELECT gpu, t_s, field, reason FROM sample_absences", [&](const Statement& s) {
    at_tick[{static_cast<int>(s.get_int(0)), s.get_double(1), s.get_text(2)}] = s.get_text(3);
  });
}

// NVLink rows in time order: (gpu, t_s, counters).
using NvlinkRows = std::vector<std::tuple<int, double, core::NvLinkErrorSample>>;

std::optional<core::Error> read_nvlink(Database& db, NvlinkRows& rows) {
  return for_each_row(db, fmt::format("SELECT {} FROM nvlink ORDER BY t_s, gpu, link", nvlink_columns()), [&](const Statement& s) {
    core::NvLinkErrorSample l;
    l.link = static_cast<int>(s.get_int(2));
    int col = 3;
    const auto counter = [&](std::string_view, auto member) {
      read_column(s, col++, l.*member, [] { return "not supported on this link"; });
    };
    for_each_field(counter, kNvlinkCounters);
    rows.emplace_back(static_cast<int>(s.get_int(0)), s.get_double(1), std::move(l));
  });
}

// Each sample sees, per link, the last NVLink row of its GPU at or before it.
std::optional<core::Error> read_samples(Database& db, const AbsenceLookup& lookup, const NvlinkRows& nvlink_rows,
                                        std::vector<core::TelemetrySample>& samples) {
  std::map<int, std::map<int, core::NvLinkErrorSample>> links;  // gpu -> link -> current
  std::size_t next_row = 0;
  return for_each_row(db, fmt::format("SELECT {} FROM samples ORDER BY t_s, gpu", sample_columns()), [&](const Statement& s) {
    core::TelemetrySample sample;
    sample.gpu = static_cast<int>(s.get_int(0));
    sample.t_s = s.get_double(1);
    sample.unix_ms = s.get_int(2);
    int col = 3;
    for_each_sample_field([&](std::string_view name, auto member) {
      read_column(s, col++, sample.*member, [&] { return lookup.reason(sample.gpu, sample.t_s, name); });
    });
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
    samples.push_back(std::move(sample));
  });
}

std::optional<core::Error> read_events(Database& db, std::vector<core::TelemetryEvent>& events) {
  const auto event = [&](const Statement& s) -> std::optional<core::Error> {
    core::TelemetryEvent e;
    e.gpu = static_cast<int>(s.get_int(0));
    e.t_s = s.get_double(1);
    if (!core::parse_telemetry_event_kind(s.get_text(2), e.kind)) {
      return core::input_error(fmt::format("{}: unknown event kind '{}'", db.path(), s.get_text(2)));
    }
    e.code = static_cast<int>(s.get_int(3));
    e.message = s.get_text(4);
    events.push_back(std::move(e));
    return std::nullopt;
  };
  return for_each_row(db, "SELECT gpu, t_s, kind, code, message FROM events ORDER BY t_s, rowid", event);
}

}  // namespace

core::Result<core::BurninRecord> read_record(Database& db) {
  core::BurninRecord record;
  Reasons unsupported;
  TickReasons at_tick;
  NvlinkRows nvlink_rows;
  const AbsenceLookup lookup{unsupported, at_tick};
  if (auto e = check_schema(db)) return *e;
  if (auto e = read_run(db, record.run)) return *e;
  if (auto e = read_unsupported(db, record, unsupported)) return *e;
  if (auto e = read_gpus(db, unsupported, record.gpus)) return *e;
  if (auto e = read_tick_reasons(db, at_tick)) return *e;
  if (auto e = read_nvlink(db, nvlink_rows)) return *e;
  if (auto e = read_samples(db, lookup, nvlink_rows, record.samples)) return *e;
  if (auto e = read_events(db, record.events)) return *e;
  return record;
}

core::Result<core::BurninRecord> TelemetryStore::read_back() {
  if (auto e = commit()) return *e;
  return read_record(*db_);
}

core::Result<core::BurninRecord> load_burnin(const std::string& path) {
  // Evidence: the file and its directory stay byte for byte as they were (a bundle verifies
  // after a report); a killed run's -wal is still read (through a private copy).
  auto db = Database::open(path, Database::Mode::read_only);
  if (!db) return db.error();
  auto record = read_record(*db.value());
  if (!record) return record.error().with_context("reading burn-in database");
  return record;
}

}  // namespace gpuvet::telemetry
