// Fuzzes the history reader (`gpuvet report --db`, `gpuvet trend --db`) in two ways: any input is
// written to a file and opened as a SQLite database; an input that starts with "gpuvet-damage:" is
// a list of edits applied with SQL to a history written by TelemetryStore (a valid file the reader
// must now refuse or read). Either must give a record or an Error naming the file, and what was
// read must hold what the reader promises: GPUs, a sampling interval of 1 ms or more, each GPU's
// samples after each other in time and of a GPU the file lists.
#include <sqlite3.h>
#include <unistd.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <set>
#include <string>

#include "core/telemetry.hpp"
#include "platform/clock.hpp"
#include "telemetry/history_reader.hpp"
#include "telemetry/telemetry_store.hpp"

namespace {

constexpr char kDamagePrefix[] = "gpuvet-damage:";

void remove_db(const std::string& path) {
  for (const char* suffix : {"", "-wal", "-shm", "-journal", ".lock"}) std::remove((path + suffix).c_str());
}

// A small history as gpuvet writes it: 3 GPUs, 30 ticks 2 s apart, NVLink counters that change,
// an absence, events, minute and hour rollups.
void write_base(const std::string& path) {
  using namespace gpuvet;
  core::BurninRunInfo run;
  run.source = "fuzz";
  run.interval_s = 2;
  run.planned_duration_s = 60;
  run.started_unix_ms = 1700000000000;
  std::vector<core::BurninGpu> gpus(3);
  for (int g = 0; g < 3; ++g) {
    gpus[g].index = g;
    gpus[g].uuid = "GPU-" + std::to_string(g);
    gpus[g].power_limit_w = 700.0;
  }
  platform::ManualClock clock;
  telemetry::StoreOptions options;
  options.purpose = "monitor";
  options.fsync_each_commit = false;
  auto store = telemetry::TelemetryStore::create(path, run, gpus, clock, options);
  if (!store) std::abort();
  for (int tick = 1; tick <= 30; ++tick) {
    for (int g = 0; g < 3; ++g) {
      core::TelemetrySample s;
      s.gpu = g;
      s.t_s = tick * 2.0;
      s.unix_ms = run.started_unix_ms + tick * 2000;
      s.gpu_temp_c = 60.0 + g + tick % 4;
      s.power_w = 600.0 + tick;
      s.sm_clock_mhz = 1980.0 - (tick % 3) * 15;
      s.util_gpu_pct = 100.0;
      s.clocks_event_reasons = tick == 7 ? core::clocks_event::hw_slowdown : core::clocks_event::sw_power_cap;
      s.ecc_corrected = static_cast<std::uint64_t>(tick / 10);
      if (g == 2 && tick == 5) s.power_w = core::Absent{"read failed"};
      const core::Reading<std::uint64_t> crc(static_cast<std::uint64_t>(tick / 8));
      s.nvlink = std::vector<core::NvLinkErrorSample>{{0, crc, crc, core::Reading<std::uint64_t>(std::uint64_t{0}), crc}};
      if (store.value()->append(s)) std::abort();
    }
    if (store.value()->end_tick()) std::abort();
  }
  if (store.value()->append(core::TelemetryEvent{1, 20, core::TelemetryEventKind::xid, 79, "Xid 79"})) std::abort();
  if (store.value()->finish(core::BurninStatus::completed, 60)) std::abort();
}

// What an edit may change: a column of a table (rows picked by position), or a row deleted.
struct Target {
  const char* table;
  const char* column;           // nullptr: delete the row
  const char* key = "rowid";    // what picks a row (the rollup tables have no rowid)
};
constexpr const char* kMinute = "(gpu, minute)";
constexpr const char* kHour = "(gpu, hour)";
constexpr Target kTargets[] = {
    {"run", "interval_s"},         {"run", "planned_duration_s"}, {"run", "started_unix_ms"},
    {"run", "status"},             {"run", "ended_t_s"},          {"run", nullptr},
    {"ticks", "t_s"},              {"ticks", "unix_ms"},          {"ticks", "data"},
    {"ticks", nullptr},            {"gpus", "idx"},               {"gpus", "uuid"},
    {"gpus", nullptr},             {"nvlink", "t_s"},             {"nvlink", "gpu"},
    {"nvlink", "link"},            {"nvlink", "crc_flit"},        {"events", "t_s"},
    {"events", "kind"},            {"events", "gpu"},             {"sample_absences", "t_s"},
    {"sample_absences", "gpu"},    {"unsupported", "gpu"},        {"segments", "interval_s"},
    {"meta", "value"},             {"rollups", "t_s", kMinute},   {"rollups", "minute", kMinute},
    {"rollups", nullptr, kMinute}, {"hourly_rollups", "t_s", kHour}, {"hourly_rollups", "hour", kHour},
    {"hourly_rollups", "samples", kHour}, {"hourly_rollups", nullptr, kHour},
};
constexpr std::size_t kEditSize = 11;  // target, row, value kind, 8 value bytes

// Applies each 11-byte edit: byte 0 picks the target, byte 1 the row (its position; 255: every
// row), byte 2 the kind of value (NULL, integer, real, text, blob) and bytes 3..10 the value.
void apply_edits(const std::string& path, const std::uint8_t* data, std::size_t size) {
  sqlite3* db = nullptr;
  if (sqlite3_open(path.c_str(), &db) != SQLITE_OK) std::abort();
  // One transaction, no fsync: a statement a constraint refuses is undone alone, the rest kept.
  sqlite3_exec(db, "PRAGMA synchronous=OFF; BEGIN", nullptr, nullptr, nullptr);
  for (std::size_t at = 0; at + kEditSize <= size; at += kEditSize) {
    const Target& t = kTargets[data[at] % (sizeof kTargets / sizeof kTargets[0])];
    const bool all = data[at + 1] == 255;
    const std::string key = t.key;
    const std::string where = all ? "" : " WHERE " + key + " = (SELECT " + key + " FROM " + t.table + " LIMIT 1 OFFSET ?2)";
    const std::string sql = t.column ? std::string("UPDATE ") + t.table + " SET " + t.column + " = ?1" + where
                                     : std::string("DELETE FROM ") + t.table + where;
    sqlite3_stmt* st = nullptr;
    if (sqlite3_prepare_v2(db, sql.c_str(), -1, &st, nullptr) != SQLITE_OK) continue;
    const std::uint8_t* v = data + at + 3;
    std::int64_t bits = 0;
    std::memcpy(&bits, v, sizeof bits);
    double real = 0;
    std::memcpy(&real, v, sizeof real);
    if (t.column) {
      switch (data[at + 2] % 5) {
        case 0: sqlite3_bind_null(st, 1); break;
        case 1: sqlite3_bind_int64(st, 1, bits); break;
        case 2: sqlite3_bind_double(st, 1, real); break;
        case 3: sqlite3_bind_text(st, 1, reinterpret_cast<const char*>(v), 8, SQLITE_TRANSIENT); break;
        default: sqlite3_bind_blob(st, 1, v, 8, SQLITE_TRANSIENT); break;
      }
    }
    if (!all) sqlite3_bind_int(st, 2, data[at + 1]);
    (void)sqlite3_step(st);  // a constraint broken is an edit that did not happen
    sqlite3_finalize(st);
  }
  sqlite3_exec(db, "COMMIT", nullptr, nullptr, nullptr);
  sqlite3_close(db);
}

// Traps when what was read breaks a promise of the reader.
void check_read(const std::string& path) {
  using namespace gpuvet;
  std::set<int> listed;
  std::map<int, double> last;
  bool header = false;
  telemetry::HistorySinks sinks;
  sinks.on_header = [&](const core::BurninRecord& r) {
    header = true;
    if (r.gpus.empty() || !std::isfinite(r.run.interval_s) || r.run.interval_s < 0.001) __builtin_trap();
    for (const auto& g : r.gpus) listed.insert(g.index);
  };
  sinks.on_sample = [&](const core::TelemetrySample& s) {
    if (!header || !listed.count(s.gpu) || !std::isfinite(s.t_s)) __builtin_trap();
    auto it = last.find(s.gpu);
    if (it != last.end() && !(s.t_s > it->second)) __builtin_trap();
    last[s.gpu] = s.t_s;
  };
  sinks.on_hour_rollup = [](const telemetry::HourRollup&, std::int64_t) {};
  const auto history = telemetry::read_history(path, sinks);
  if (!history && history.error().message.find(path) == std::string::npos) __builtin_trap();
}

// One private directory per process, so parallel fuzzing jobs (-jobs=N) do not share files;
// removed when the process exits normally.
struct ScratchDb {
  std::string dir;
  std::string path;
  std::string base;
  ScratchDb() {
    const char* tmp = std::getenv("TMPDIR");
    dir = std::string(tmp && *tmp ? tmp : "/tmp") + "/gpuvet-fuzz-XXXXXX";
    if (!mkdtemp(dir.data())) std::abort();
    path = dir + "/burnin.db";
    base = dir + "/base.db";
    write_base(base);
  }
  ~ScratchDb() {
    remove_db(path);
    remove_db(base);
    rmdir(dir.c_str());
  }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const ScratchDb scratch;
  const std::string& path = scratch.path;
  remove_db(path);
  const std::size_t prefix = sizeof kDamagePrefix - 1;
  if (size >= prefix && std::memcmp(data, kDamagePrefix, prefix) == 0) {
    {
      std::ifstream in(scratch.base, std::ios::binary);
      std::ofstream out(path, std::ios::binary);
      out << in.rdbuf();
      if (!out) std::abort();
    }
    apply_edits(path, data + prefix, size - prefix);
  } else {
    std::FILE* file = std::fopen(path.c_str(), "wb");
    if (!file) std::abort();
    if (size > 0 && std::fwrite(data, 1, size, file) != size) std::abort();
    std::fclose(file);
  }
  const auto record = gpuvet::telemetry::load_burnin(path);
  if (!record && record.error().message.find(path) == std::string::npos) __builtin_trap();
  check_read(path);
  remove_db(path);
  return 0;
}
