// The burn-in database: what goes in comes back (absences with their reasons), NVLink counters
// stored on change, commits paced by the injected clock, and refusals (existing file, other schema).
#include <sqlite3.h>

#include <gtest/gtest.h>

#include <limits>

#include "analysis/test_burnin_records.hpp"
#include "telemetry/telemetry_store.hpp"
#include "telemetry_test_support.hpp"

namespace gpuvet::telemetry::testing {
namespace {

core::BurninRunInfo run_info() {
  core::BurninRunInfo run;
  run.source = "test";
  run.hostname = "host";
  run.dtype = "bf16";
  run.faults = {"xid:gpu=1,code=48,at=10s", "straggler:gpu=0,factor=0.8"};
  run.interval_s = 10;
  run.planned_duration_s = 3600;
  run.started_unix_ms = 1700000000000;
  run.stress_backend = "stress";
  run.telemetry_source = "telemetry";
  return run;
}

TEST(TelemetryStore, RoundTripsARunExactly) {
  TempDb tmp;
  platform::ManualClock clock;
  auto record = analysis::testing::healthy_burnin(4, 600, 10);
  record.run = run_info();
  record.gpus[2].power_limit_w = core::Reading<double>::absent("NVML_ERROR_NOT_SUPPORTED");
  record.unsupported = {{1, "mem_temp_c", "not supported on this GPU"}};
  for (auto& s : record.samples) {
    if (s.gpu == 1) s.mem_temp_c = core::Absent{"not supported on this GPU"};
    if (s.gpu == 3 && s.t_s == 300) s.power_w = core::Absent{"nvmlDeviceGetPowerUsage: NVML_ERROR_UNKNOWN"};
    if (s.gpu == 0 && s.t_s >= 200) {
      auto links = *s.nvlink;
      links[3].crc_flit = static_cast<std::uint64_t>(s.t_s);
      s.nvlink = links;
    }
  }
  record.events = {{1, 10, core::TelemetryEventKind::xid, 48, "Xid 48"},
                   {1, 20, core::TelemetryEventKind::safety_stop, 48, "stopped"}};

  auto store = TelemetryStore::create(tmp.path(), record.run, record.gpus, clock);
  ASSERT_TRUE(store) << store.error().message;
  ASSERT_FALSE(store.value()->record_unsupported(record.unsupported));
  for (const auto& s : record.samples) ASSERT_FALSE(store.value()->append(s));
  for (const auto& e : record.events) ASSERT_FALSE(store.value()->append(e));
  ASSERT_FALSE(store.value()->finish(core::BurninStatus::completed, 600));
  store.value().reset();

  auto loaded = load_burnin(tmp.path());
  ASSERT_TRUE(loaded) << loaded.error().message;
  record.run.status = core::BurninStatus::completed;
  record.run.ended_t_s = 600.0;
  EXPECT_EQ(loaded->run, record.run);
  EXPECT_EQ(loaded->gpus, record.gpus);
  EXPECT_EQ(loaded->unsupported, record.unsupported);
  EXPECT_EQ(loaded->events, record.events);
  ASSERT_EQ(loaded->samples.size(), record.samples.size());
  for (std::size_t i = 0; i < record.samples.size(); ++i) {
    ASSERT_EQ(loaded->samples[i], record.samples[i]) << "sample " << i << " gpu " << record.samples[i].gpu << " t "
                                                     << record.samples[i].t_s;
  }
  EXPECT_EQ(loaded->samples[1].mem_temp_c.reason(), "not supported on this GPU");
}

TEST(TelemetryStore, StoresNvlinkCountersOnlyWhenTheyChange) {
  TempDb tmp;
  platform::ManualClock clock;
  auto record = analysis::testing::healthy_burnin(2, 100, 1);
  auto store = TelemetryStore::create(tmp.path(), run_info(), record.gpus, clock);
  ASSERT_TRUE(store);
  for (auto s : record.samples) {
    if (s.gpu == 1 && s.t_s >= 50) {
      auto links = *s.nvlink;
      links[0].replay = std::uint64_t{7};
      s.nvlink = links;
    }
    ASSERT_FALSE(store.value()->append(s));
  }
  ASSERT_FALSE(store.value()->commit());
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(tmp.path().c_str(), &db), SQLITE_OK);
  sqlite3_stmt* st = nullptr;
  ASSERT_EQ(sqlite3_prepare_v2(db, "SELECT COUNT(*) FROM nvlink", -1, &st, nullptr), SQLITE_OK);
  ASSERT_EQ(sqlite3_step(st), SQLITE_ROW);
  EXPECT_EQ(sqlite3_column_int(st, 0), 2 * 18 + 1);  // first sample of each link, plus one change
  sqlite3_finalize(st);
  sqlite3_close(db);
}

TEST(TelemetryStore, CommitsWhenHalfTheLagHasPassed) {
  TempDb tmp;
  platform::ManualClock clock;
  auto record = analysis::testing::healthy_burnin(1, 10, 1);
  auto store = TelemetryStore::create(tmp.path(), run_info(), record.gpus, clock);
  ASSERT_TRUE(store);
  const std::size_t before = store.value()->commits();
  for (int i = 0; i < 4; ++i) {
    ASSERT_FALSE(store.value()->append(record.samples[static_cast<std::size_t>(i)]));
    clock.advance(std::chrono::milliseconds(200));
    ASSERT_FALSE(store.value()->end_tick());
  }
  // 0.2, 0.4 (not yet), 0.6 (commit), 0.8 (0.2 since: not yet).
  EXPECT_EQ(store.value()->commits(), before + 1);
  clock.advance(std::chrono::milliseconds(400));
  ASSERT_FALSE(store.value()->end_tick());
  EXPECT_EQ(store.value()->commits(), before + 2);
}

TEST(TelemetryStore, NeverOverwritesADatabase) {
  TempDb tmp;
  platform::ManualClock clock;
  auto record = analysis::testing::healthy_burnin(1, 10, 1);
  ASSERT_TRUE(TelemetryStore::create(tmp.path(), run_info(), record.gpus, clock));
  auto again = TelemetryStore::create(tmp.path(), run_info(), record.gpus, clock);
  ASSERT_FALSE(again);
  EXPECT_EQ(again.error().kind, core::ErrorKind::usage);
  EXPECT_NE(again.error().message.find("already exists"), std::string::npos);
}

TEST(TelemetryStore, RefusesFilesThatAreNotBurninDatabases) {
  TempDb tmp;
  EXPECT_EQ(load_burnin(tmp.path("missing.db")).error().kind, core::ErrorKind::bad_input);
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(tmp.path("other.db").c_str(), &db), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(db, "CREATE TABLE t (x INTEGER)", nullptr, nullptr, nullptr), SQLITE_OK);
  sqlite3_close(db);
  auto other = load_burnin(tmp.path("other.db"));
  ASSERT_FALSE(other);
  EXPECT_EQ(other.error().kind, core::ErrorKind::bad_input);
  EXPECT_NE(other.error().message.find("not a gpuvet history database (burn-in or monitor; SQLite: no such table: meta)"), std::string::npos);

  platform::ManualClock clock;
  auto record = analysis::testing::healthy_burnin(1, 10, 1);
  ASSERT_TRUE(TelemetryStore::create(tmp.path("v7.db"), run_info(), record.gpus, clock));
  ASSERT_EQ(sqlite3_open(tmp.path("v7.db").c_str(), &db), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(db, "UPDATE meta SET value = '7' WHERE key = 'schema_version'", nullptr, nullptr, nullptr), SQLITE_OK);
  sqlite3_close(db);
  auto newer = load_burnin(tmp.path("v7.db"));
  ASSERT_FALSE(newer);
  EXPECT_NE(newer.error().message.find("schema version 7, this gpuvet reads versions 2 to 6"), std::string::npos);

  // Version 1 (a row per sample, before the streaming judge) is refused naming what it is.
  ASSERT_TRUE(TelemetryStore::create(tmp.path("v1.db"), run_info(), record.gpus, clock));
  ASSERT_EQ(sqlite3_open(tmp.path("v1.db").c_str(), &db), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(db, "UPDATE meta SET value = '1' WHERE key = 'schema_version'", nullptr, nullptr, nullptr), SQLITE_OK);
  sqlite3_close(db);
  auto older = load_burnin(tmp.path("v1.db"));
  ASSERT_FALSE(older);
  EXPECT_EQ(older.error().kind, core::ErrorKind::bad_input);
  EXPECT_NE(older.error().message.find("schema version 1 (one row per sample"), std::string::npos) << older.error().message;
  EXPECT_NE(older.error().message.find("this gpuvet reads versions 2 to 6"), std::string::npos);
}

TEST(TelemetryStore, SamplesMustComeInTimeOrder) {
  platform::ManualClock clock;
  auto record = analysis::testing::healthy_burnin(2, 20, 1);
  auto store = TelemetryStore::create(":memory:", run_info(), record.gpus, clock);
  ASSERT_TRUE(store);
  ASSERT_FALSE(store.value()->append(record.samples[4]));
  auto e = store.value()->append(record.samples[0]);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->kind, core::ErrorKind::internal);
}

// A value the store cannot hold at its resolution is absent with the reason, never a number.
TEST(TelemetryStore, NonFiniteValuesAreAbsent) {
  platform::ManualClock clock;
  auto record = analysis::testing::healthy_burnin(1, 3, 1);
  record.samples[1].power_w = std::numeric_limits<double>::quiet_NaN();
  auto store = TelemetryStore::create(":memory:", run_info(), record.gpus, clock);
  ASSERT_TRUE(store);
  for (const auto& s : record.samples) ASSERT_FALSE(store.value()->append(s));
  auto back = store.value()->read_back();
  ASSERT_TRUE(back);
  ASSERT_EQ(back->samples.size(), 3u);
  EXPECT_EQ(back->samples[0].power_w, record.samples[0].power_w);
  EXPECT_EQ(back->samples[1].power_w.reason(), "not a finite number");
  EXPECT_EQ(back->samples[2].power_w, record.samples[2].power_w);
}

TEST(TelemetryStore, MalformedSampleDataIsBadInput) {
  TempDb tmp;
  platform::ManualClock clock;
  auto record = analysis::testing::healthy_burnin(2, 10, 1);
  {
    auto store = TelemetryStore::create(tmp.path(), run_info(), record.gpus, clock);
    ASSERT_TRUE(store);
    for (const auto& s : record.samples) ASSERT_FALSE(store.value()->append(s));
    ASSERT_FALSE(store.value()->finish(core::BurninStatus::completed, 10));
  }
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(tmp.path().c_str(), &db), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(db, "UPDATE ticks SET data = x'00ff' WHERE rowid = 3", nullptr, nullptr, nullptr), SQLITE_OK);
  sqlite3_close(db);
  auto loaded = load_burnin(tmp.path());
  ASSERT_FALSE(loaded);
  EXPECT_EQ(loaded.error().kind, core::ErrorKind::bad_input);
  EXPECT_NE(loaded.error().message.find("malformed sample data"), std::string::npos) << loaded.error().message;
  EXPECT_NE(loaded.error().message.find("samples at 3 s"), std::string::npos) << loaded.error().message;
}

TEST(TelemetryStore, InMemoryDatabaseReadsBack) {
  platform::ManualClock clock;
  auto record = analysis::testing::healthy_burnin(2, 20, 1);
  auto store = TelemetryStore::create(":memory:", run_info(), record.gpus, clock);
  ASSERT_TRUE(store);
  for (const auto& s : record.samples) ASSERT_FALSE(store.value()->append(s));
  auto back = store.value()->read_back();
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_EQ(back->samples.size(), record.samples.size());
  EXPECT_EQ(back->run.status, core::BurninStatus::running);
  EXPECT_FALSE(back->run.ended_t_s.known());
}

}  // namespace
}  // namespace gpuvet::telemetry::testing
