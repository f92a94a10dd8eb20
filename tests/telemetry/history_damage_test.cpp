// Damaged histories (issue 20): a real store written by the code, then damaged with SQL. What the
// reader cannot read around (no GPU rows, an impossible sampling interval, a GPU's times going
// backwards, samples of a GPU the file does not list) is bad input naming the table and row, for
// every reader: read_burnin, read_history, `report --db` and `trend --db` (exit 2). A readable
// history that holds no sample of a GPU is incomplete (exit 3), saying which GPU.
#include <sqlite3.h>

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "analysis/test_burnin_records.hpp"
#include "cli/cli_runner.hpp"
#include "telemetry/history_reader.hpp"
#include "telemetry/telemetry_store.hpp"
#include "telemetry_test_support.hpp"

namespace gpuvet::telemetry::testing {
namespace {

using gpuvet::testing::run_cli;

constexpr std::int64_t kStart = 1700000000000;

// A finished history of `gpus` GPUs sampled every `interval_s` for `duration_s`, as a burn-in
// writes it; `sampled(gpu)` says which GPUs have samples.
template <class Sampled>
void write_history(const std::string& path, int gpus, double duration_s, double interval_s, Sampled&& sampled) {
  platform::ManualClock clock;
  auto record = analysis::testing::healthy_burnin(gpus, duration_s, interval_s);
  record.run.started_unix_ms = kStart;
  record.run.status = core::BurninStatus::running;
  auto store = TelemetryStore::create(path, record.run, record.gpus, clock);
  ASSERT_TRUE(store) << store.error().message;
  for (auto s : record.samples) {
    if (!sampled(s.gpu)) continue;
    s.unix_ms = kStart + static_cast<std::int64_t>(s.t_s * 1000);
    ASSERT_FALSE(store.value()->append(s));
  }
  ASSERT_FALSE(store.value()->finish(core::BurninStatus::completed, duration_s));
}

// 2 GPUs, 10 minutes, every 10 s: rows 1..60 of ticks hold t = 10..600 s.
void write_history(const std::string& path) {
  write_history(path, 2, 600, 10, [](int) { return true; });
}

// 8 GPUs, 3 hours, every 60 s: long enough for `gpuvet trend` to compare the GPUs.
template <class Sampled>
void write_long_history(const std::string& path, Sampled&& sampled) {
  write_history(path, 8, 3 * 3600, 60, sampled);
}

void damage(const std::string& path, const std::string& sql) {
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  char* message = nullptr;
  EXPECT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &message), SQLITE_OK) << (message ? message : "");
  sqlite3_free(message);
  sqlite3_close(db);
}

// Every reader refuses the file as bad input with `expected` in its message.
void expect_refused_everywhere(const std::string& path, const std::string& expected) {
  auto burnin = load_burnin(path);
  ASSERT_FALSE(burnin) << "read_burnin read it";
  EXPECT_EQ(burnin.error().kind, core::ErrorKind::bad_input);
  EXPECT_NE(burnin.error().message.find(path), std::string::npos) << burnin.error().message;
  EXPECT_NE(burnin.error().message.find(expected), std::string::npos) << burnin.error().message;

  auto history = read_history(path, {});
  ASSERT_FALSE(history) << "read_history read it";
  EXPECT_EQ(history.error().kind, core::ErrorKind::bad_input);
  EXPECT_NE(history.error().message.find(expected), std::string::npos) << history.error().message;

  for (const char* command : {"report", "trend"}) {
    const auto run = run_cli({command, "--db", path});
    EXPECT_EQ(run.exit_code, 2) << command << "\n" << run.out << run.err;
    EXPECT_NE(run.err.find(path), std::string::npos) << command << ": " << run.err;
    EXPECT_NE(run.err.find(expected), std::string::npos) << command << ": " << run.err;
  }
}

TEST(HistoryDamage, AnUndamagedHistoryIsReadByEveryReader) {
  TempDb tmp;
  write_long_history(tmp.path(), [](int) { return true; });
  EXPECT_EQ(run_cli({"report", "--db", tmp.path()}).exit_code, 0);
  EXPECT_EQ(run_cli({"trend", "--db", tmp.path()}).exit_code, 0);
}

TEST(HistoryDamage, NoGpuRowsIsBadInputNamingTheTable) {
  TempDb tmp;
  write_history(tmp.path());
  damage(tmp.path(), "DELETE FROM gpus; DELETE FROM ticks");
  expect_refused_everywhere(tmp.path(), "table gpus has no row");
}

TEST(HistoryDamage, AnImpossibleSamplingIntervalIsBadInputNamingIt) {
  for (const std::string interval : {"0", "-1", "1e-300", "0.0009", "9e999"}) {
    SCOPED_TRACE(interval);
    TempDb tmp;
    write_history(tmp.path());
    damage(tmp.path(), "UPDATE run SET interval_s = " + interval);
    expect_refused_everywhere(tmp.path(), "table run: interval_s is ");
    EXPECT_NE(load_burnin(tmp.path()).error().message.find("at least 0.001 s (1 ms)"), std::string::npos);
  }
}

TEST(HistoryDamage, TimeGoingBackwardsIsBadInputNamingTheRow) {
  TempDb tmp;
  write_history(tmp.path());
  // Rows 1..60 hold t = 10..600 s: times reversed, each GPU's second sample is before its first.
  damage(tmp.path(), "UPDATE ticks SET t_s = 610 - t_s");
  expect_refused_everywhere(tmp.path(), "table ticks, row 2: GPU 0 sampled at 590 s, not after its sample at 600 s (row 1)");

  // One row moved back in time, the rest in order: that row is named.
  TempDb one;
  write_history(one.path());
  damage(one.path(), "UPDATE ticks SET t_s = 100 WHERE rowid = 30");
  expect_refused_everywhere(one.path(), "table ticks, row 30: GPU 0 sampled at 100 s, not after its sample at 290 s (row 29)");

  // The same time twice (two writers' ticks interleaved) is not after either.
  TempDb twice;
  write_history(twice.path());
  damage(twice.path(), "UPDATE ticks SET t_s = 290 WHERE rowid = 30");
  expect_refused_everywhere(twice.path(), "table ticks, row 30: GPU 0 sampled at 290 s, not after its sample at 290 s (row 29)");
}

TEST(HistoryDamage, SamplesOfAGpuTheFileDoesNotListAreBadInput) {
  TempDb tmp;
  write_history(tmp.path());
  damage(tmp.path(), "DELETE FROM gpus WHERE idx = 1");
  expect_refused_everywhere(tmp.path(), "table ticks, row 1: a sample of GPU 1, which table gpus does not list");
}

TEST(HistoryDamage, NonFiniteTimeIsBadInput) {
  TempDb tmp;
  write_history(tmp.path());
  damage(tmp.path(), "UPDATE ticks SET t_s = 9e999 WHERE rowid = 5");
  expect_refused_everywhere(tmp.path(), "table ticks, row 5: time inf s");
}

// Readable, but a GPU it lists has no sample at all: nothing was verified on it (the judges say
// so already; this keeps the reader's new checks from turning it into bad input).
TEST(HistoryDamage, AGpuWithNoSampleIsIncompleteForEveryReader) {
  TempDb tmp;
  write_long_history(tmp.path(), [](int gpu) { return gpu != 1; });
  ASSERT_TRUE(load_burnin(tmp.path()));
  const auto report = run_cli({"report", "--db", tmp.path()});
  EXPECT_EQ(report.exit_code, 3) << report.out << report.err;
  EXPECT_NE(report.out.find("GPU 1: no telemetry was recorded"), std::string::npos) << report.out;
  const auto trend = run_cli({"trend", "--db", tmp.path()});
  EXPECT_EQ(trend.exit_code, 3) << trend.out << trend.err;
  EXPECT_NE(trend.out.find("GPU 1 ran at its peers' load for 0 min"), std::string::npos) << trend.out;
}

}  // namespace
}  // namespace gpuvet::telemetry::testing
