// Schema 5: the minute rollups hold what the hourly ones hold (min/mean/max, counter growth), cut
// by the one PeriodAccumulator; each segment records its sampling interval and a history refuses
// another one (gpuvet monitor exits 2 naming both); a schema 4 monitor history (a real file,
// tests/fixtures/telemetry/README.md) still reads (the new parts absent, "not recorded") and is
// migrated in place, all or nothing, when a monitor continues it.
#include <sqlite3.h>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>

#include "analysis/test_burnin_records.hpp"
#include "cli/cli_runner.hpp"
#include "platform/clock.hpp"
#include "telemetry/period_rollup.hpp"
#include "telemetry/sqlite_db.hpp"
#include "telemetry/telemetry_store.hpp"
#include "telemetry_test_support.hpp"

namespace gpuvet::telemetry::testing {
namespace {

const std::string kFixtures = std::string(GPUVET_FIXTURES) + "/telemetry/";
const std::string kSchema4Monitor = kFixtures + "monitor-schema4-hgx-h100-8x.db";
const std::string kSchema3Monitor = kFixtures + "monitor-schema3-hgx-h100-8x.db";

// The first column of each row of `sql` as text ("" for NULL).
std::vector<std::string> query(const std::string& path, const std::string& sql) {
  sqlite3* db = nullptr;
  EXPECT_EQ(sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
  sqlite3_stmt* st = nullptr;
  EXPECT_EQ(sqlite3_prepare_v2(db, sql.c_str(), -1, &st, nullptr), SQLITE_OK) << sqlite3_errmsg(db);
  std::vector<std::string> out;
  while (st && sqlite3_step(st) == SQLITE_ROW) {
    const auto* text = sqlite3_column_text(st, 0);
    out.emplace_back(text ? reinterpret_cast<const char*>(text) : "");
  }
  sqlite3_finalize(st);
  sqlite3_close(db);
  return out;
}

std::string bytes_of(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::vector<MinuteRollup> minute_rollups(const std::string& path) {
  std::vector<MinuteRollup> out;
  auto db = Database::open(path, Database::Mode::read_only);
  EXPECT_TRUE(db) << db.error().message;
  if (!db) return out;
  const auto e = read_rollups(*db.value(), [&](const MinuteRollup& r) { out.push_back(r); });
  EXPECT_FALSE(e) << e->message;
  return out;
}

StoreOptions monitor_options(double interval_s = 0) {
  StoreOptions o;
  o.purpose = "monitor";
  o.fsync_each_commit = false;
  o.interval_s = interval_s;
  return o;
}

core::TelemetrySample sample_at(int gpu, double t) {
  core::TelemetrySample s;
  s.gpu = gpu;
  s.t_s = t;
  s.unix_ms = 1'700'000'000'000 + static_cast<std::int64_t>(t * 1000);
  return s;
}

TEST(PeriodAccumulator, CutsMinutesWithMinMeanMaxCounterGrowthAndThrottledSpan) {
  PeriodAccumulator minutes(60);
  std::vector<PeriodAccumulator::Closed> closed;
  for (int t = 0; t < 150; ++t) {
    auto s = sample_at(3, t);
    s.util_gpu_pct = static_cast<double>(t % 60);                     // 0..59 each minute
    s.ecc_corrected = static_cast<std::uint64_t>(t / 10);              // +1 every 10 s
    if (t >= 90) s.tflops = t >= 120 ? 800.0 : 700.0;                  // loaded from 90 s
    if (t >= 70 && t <= 75) s.clocks_event_reasons = core::clocks_event::hw_thermal_slowdown;
    if (auto c = minutes.add(s)) closed.push_back(*c);
  }
  if (auto c = minutes.take()) closed.push_back(*c);
  EXPECT_FALSE(minutes.take()) << "take() leaves it empty";
  ASSERT_EQ(closed.size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) EXPECT_EQ(closed[i].period, static_cast<std::int64_t>(i));

  const PeriodRollup& first = closed[0].rollup;
  EXPECT_EQ(first.gpu, 3);
  EXPECT_EQ(first.samples, 60u);
  EXPECT_DOUBLE_EQ(first.t_s, 29.5);
  EXPECT_EQ(first.util_gpu_pct.min, 0.0);
  EXPECT_DOUBLE_EQ(*first.util_gpu_pct.mean, 29.5);
  EXPECT_EQ(first.util_gpu_pct.max, 59.0);
  EXPECT_FALSE(first.power_w.mean) << "never read: absent, not 0";
  EXPECT_EQ(first.ecc_corrected_new, std::uint64_t{5});  // 0 -> 5 within the minute
  EXPECT_FALSE(first.nvlink_crc_new) << "no link read: no growth computed";
  EXPECT_EQ(first.loaded, 0u);
  EXPECT_FALSE(first.tflops);

  const PeriodRollup& second = closed[1].rollup;
  EXPECT_EQ(second.ecc_corrected_new, std::uint64_t{6});  // 5 (the last of minute 0) -> 11
  EXPECT_EQ(second.throttled, 6u);
  EXPECT_EQ(second.throttled_from_s, 70.0);
  EXPECT_EQ(second.throttled_to_s, 75.0);
  EXPECT_EQ(second.loaded, 30u);
  EXPECT_DOUBLE_EQ(*second.tflops, 700.0);

  const PeriodRollup& third = closed[2].rollup;  // the open minute, 30 samples
  EXPECT_EQ(third.samples, 30u);
  EXPECT_EQ(third.loaded, 30u);
  EXPECT_DOUBLE_EQ(*third.tflops, 800.0);
  EXPECT_FALSE(third.throttled_from_s);
}

// Minute rows against values computed here from the samples; hours against their minutes.
TEST(TelemetrySchema5, MinuteRollupsHoldMinMeanMaxAndCounterGrowthLikeTheHours) {
  TempDb tmp;
  auto record = analysis::testing::healthy_burnin(2, 7200, 1);
  for (auto& s : record.samples) {
    const int step = static_cast<int>(s.t_s);
    s.gpu_temp_c = 60.0 + (step * 7 + s.gpu) % 13;
    s.util_gpu_pct = static_cast<double>((step * 3) % 101);
    if (s.gpu == 1) {
      auto links = *s.nvlink;
      links[2].crc_flit = static_cast<std::uint64_t>(step / 7);
      s.nvlink = links;
    }
  }
  platform::ManualClock clock;
  {
    auto store = TelemetryStore::create(tmp.path(), record.run, record.gpus, clock);
    ASSERT_TRUE(store) << store.error().message;
    for (const auto& s : record.samples) ASSERT_FALSE(store.value()->append(s));
    ASSERT_FALSE(store.value()->finish(core::BurninStatus::completed, 7200));
  }
  EXPECT_EQ(query(tmp.path(), "SELECT value FROM meta WHERE key = 'schema_version'"), std::vector<std::string>{"6"});
  EXPECT_EQ(query(tmp.path(), "SELECT interval_s FROM segments"), std::vector<std::string>{"1.0"});

  struct Expected {
    std::size_t n = 0;
    double temp_min = 1e9, temp_max = -1e9, temp_sum = 0, util_min = 1e9, util_max = -1e9, util_sum = 0;
  };
  std::map<std::pair<int, std::int64_t>, Expected> expected;
  for (const auto& s : record.samples) {
    auto& e = expected[{s.gpu, static_cast<std::int64_t>(s.t_s / 60)}];
    ++e.n;
    e.temp_min = std::min(e.temp_min, *s.gpu_temp_c);
    e.temp_max = std::max(e.temp_max, *s.gpu_temp_c);
    e.temp_sum += *s.gpu_temp_c;
    e.util_min = std::min(e.util_min, *s.util_gpu_pct);
    e.util_max = std::max(e.util_max, *s.util_gpu_pct);
    e.util_sum += *s.util_gpu_pct;
  }
  const auto rows = minute_rollups(tmp.path());
  ASSERT_EQ(rows.size(), expected.size());
  std::map<std::pair<int, std::int64_t>, std::uint64_t> crc_by_hour;  // (gpu, hour) -> sum of the minutes' growth
  for (const auto& r : rows) {
    const auto& e = expected.at({r.gpu, r.minute});
    ASSERT_EQ(r.samples, e.n) << r.gpu << " " << r.minute;
    EXPECT_TRUE(r.not_recorded.empty()) << r.not_recorded;
    EXPECT_EQ(r.gpu_temp_c.min, e.temp_min);
    EXPECT_EQ(r.gpu_temp_c.max, e.temp_max);
    EXPECT_NEAR(*r.gpu_temp_c.mean, e.temp_sum / static_cast<double>(e.n), 1e-9);
    EXPECT_EQ(r.util_gpu_pct.min, e.util_min);
    EXPECT_EQ(r.util_gpu_pct.max, e.util_max);
    EXPECT_NEAR(*r.util_gpu_pct.mean, e.util_sum / static_cast<double>(e.n), 1e-9);
    ASSERT_TRUE(r.power_w.min && r.power_w.max && r.sm_clock_mhz.min && r.sm_clock_mhz.max);
    EXPECT_LE(*r.power_w.min, *r.power_w.mean);
    EXPECT_EQ(r.ecc_uncorrected_new, std::uint64_t{0});
    ASSERT_TRUE(r.nvlink_crc_new);
    if (r.gpu == 0) {
      EXPECT_EQ(*r.nvlink_crc_new, 0u);
    }
    crc_by_hour[std::make_pair(r.gpu, r.minute / 60)] += *r.nvlink_crc_new;
  }
  // GPU 1's link 2 counter rose from 0 (t = 1 s) to 7200 / 7 = 1028 over the run.
  std::uint64_t gpu1_crc = 0;
  for (std::int64_t hour = 0; hour < 3; ++hour) gpu1_crc += crc_by_hour[std::make_pair(1, hour)];
  EXPECT_EQ(gpu1_crc, 1028u);
  std::size_t hours = 0;
  ASSERT_FALSE(read_hour_rollups(tmp.path(), [&](const HourRollup& h) {
    ++hours;
    EXPECT_EQ(h.nvlink_crc_new, crc_by_hour[std::make_pair(h.gpu, h.hour)]) << "the hour grows by the sum of its minutes";
    double temp_min = 1e9;
    for (const auto& r : rows) {
      if (r.gpu == h.gpu && r.minute / 60 == h.hour) temp_min = std::min(temp_min, *r.gpu_temp_c.min);
    }
    EXPECT_EQ(h.gpu_temp_c.min, temp_min);
  }));
  EXPECT_EQ(hours, 2u * 3);  // hours 0, 1 and the one sample at 7200 s
}

TEST(TelemetrySchema5, AMonitorRestartedWithinAMinuteMergesTheMinute) {
  TempDb tmp;
  auto record = analysis::testing::healthy_burnin(1, 40, 1);
  record.run.interval_s = 1;
  platform::ManualClock clock;
  const auto temp_at = [](double t) { return t < 20 ? 50.0 + t : 90.0 - t; };  // 51..69, then 70..50
  {
    auto store = TelemetryStore::create(tmp.path(), record.run, record.gpus, clock, monitor_options());
    ASSERT_TRUE(store) << store.error().message;
    for (auto s : record.samples) {
      if (s.t_s >= 20) break;
      s.gpu_temp_c = temp_at(s.t_s);
      ASSERT_FALSE(store.value()->append(s));
    }
    ASSERT_FALSE(store.value()->finish(core::BurninStatus::interrupted, 19));
  }
  {
    auto store = TelemetryStore::reopen(tmp.path(), record.gpus, "test", clock, monitor_options(1));
    ASSERT_TRUE(store) << store.error().message;
    for (auto s : record.samples) {
      if (s.t_s < 20) continue;
      s.gpu_temp_c = temp_at(s.t_s);
      ASSERT_FALSE(store.value()->append(s));
    }
    ASSERT_FALSE(store.value()->finish(core::BurninStatus::interrupted, 40));
  }
  const auto rows = minute_rollups(tmp.path());
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].samples, 40u) << "one row for the minute, both processes' samples";
  EXPECT_EQ(rows[0].gpu_temp_c.min, 50.0);
  EXPECT_EQ(rows[0].gpu_temp_c.max, 70.0);
  double sum = 0;
  for (int t = 1; t <= 40; ++t) sum += temp_at(t);
  EXPECT_NEAR(*rows[0].gpu_temp_c.mean, sum / 40, 1e-9);
  EXPECT_DOUBLE_EQ(rows[0].t_s, 20.5);
  EXPECT_EQ(rows[0].loaded, 40u);
  EXPECT_TRUE(rows[0].not_recorded.empty());
  EXPECT_EQ(query(tmp.path(), "SELECT interval_s FROM segments ORDER BY rowid"), (std::vector<std::string>{"1.0", "1.0"}));
}

TEST(TelemetrySchema5, OlderHistoriesReadTheNewPartsAsNotRecorded) {
  for (const auto& [path, version] : {std::pair{kSchema4Monitor, 4}, std::pair{kSchema3Monitor, 3}}) {
    const auto before = bytes_of(path);
    const auto rows = minute_rollups(path);
    ASSERT_FALSE(rows.empty()) << path;
    for (const auto& r : rows) {
      EXPECT_EQ(r.not_recorded, fmt::format("not recorded (a schema {} history, before gpuvet stored this reading)", version));
      EXPECT_TRUE(r.gpu_temp_c.mean && r.gpu_temp_c.max && r.sm_clock_mhz.mean && r.power_w.mean) << "kept since schema 2";
      EXPECT_FALSE(r.gpu_temp_c.min || r.util_gpu_pct.mean || r.power_w.max || r.sm_clock_mhz.min);
      EXPECT_FALSE(r.nvlink_crc_new || r.ecc_corrected_new || r.pcie_replays_new);
    }
    EXPECT_EQ(bytes_of(path), before) << "read only";
  }
}

// A copy of the schema 4 fixture continued by a monitor: `t0` on, 2 minutes of 8 GPUs.
void continue_schema4(const std::string& path, const StoreOptions& options, core::BurninRecord& before) {
  std::filesystem::copy_file(kSchema4Monitor, path);
  auto loaded = load_burnin(path);
  ASSERT_TRUE(loaded) << loaded.error().message;
  before = std::move(loaded).value();
  platform::ManualClock clock;
  auto store = TelemetryStore::reopen(path, before.gpus, "test source", clock, options);
  ASSERT_TRUE(store) << store.error().message;
  const auto& last = before.samples.back();
  for (double t = last.t_s + 1; t <= last.t_s + 120; t += 1) {
    for (int gpu = 0; gpu < 8; ++gpu) {
      core::TelemetrySample s = before.samples[before.samples.size() - 8 + static_cast<std::size_t>(gpu)];
      s.unix_ms += static_cast<std::int64_t>((t - s.t_s) * 1000);
      s.t_s = t;
      s.util_gpu_pct = 10 + t - last.t_s;
      ASSERT_FALSE(store.value()->append(s));
    }
  }
  ASSERT_FALSE(store.value()->finish(core::BurninStatus::interrupted, last.t_s + 120));
}

TEST(TelemetrySchema5, AMonitorContinuingASchema4HistoryMigratesItInPlace) {
  TempDb tmp;
  const std::string path = tmp.path("history.db");
  core::BurninRecord before;
  ASSERT_NO_FATAL_FAILURE(continue_schema4(path, monitor_options(1), before));
  EXPECT_EQ(query(path, "SELECT value FROM meta WHERE key = 'schema_version'"), std::vector<std::string>{"6"});
  EXPECT_EQ(query(path, "SELECT interval_s FROM segments ORDER BY rowid"), (std::vector<std::string>{"", "1.0"}))
      << "the schema 4 segment's interval was not recorded";

  auto after = load_burnin(path);
  ASSERT_TRUE(after) << after.error().message;
  ASSERT_EQ(after->samples.size(), before.samples.size() + 8 * 120);
  for (std::size_t i = 0; i < before.samples.size(); ++i) ASSERT_EQ(after->samples[i], before.samples[i]) << i;
  EXPECT_TRUE(after->samples.back().fb_used_bytes.known()) << "schema 4's sample fields go on being recorded";

  const double last_old = before.samples.back().t_s;  // 180 s: minute 3 holds one old sample
  const auto junction = static_cast<std::int64_t>(last_old / 60);
  std::size_t old_rows = 0, new_rows = 0;
  for (const auto& r : minute_rollups(path)) {
    if (r.minute <= junction) {
      ++old_rows;
      EXPECT_EQ(r.not_recorded, "not recorded (a schema 4 history, before gpuvet stored this reading)") << r.minute;
      if (r.minute == junction) {
        EXPECT_EQ(r.samples, 1u + 59u) << "merged with the row written before";
      }
    } else {
      ++new_rows;
      EXPECT_TRUE(r.not_recorded.empty()) << r.minute;
      EXPECT_TRUE(r.util_gpu_pct.min && r.gpu_temp_c.min && r.power_w.max && r.sm_clock_mhz.max);
      EXPECT_TRUE(r.nvlink_crc_new && r.ecc_corrected_new && r.pcie_replays_new);
    }
  }
  EXPECT_EQ(old_rows, 8u * 4);
  EXPECT_EQ(new_rows, 8u * 2);
}

TEST(TelemetrySchema5, AFailedMigrationLeavesTheSchema4HistoryAsItWas) {
  TempDb tmp;
  const std::string path = tmp.path("history.db");
  std::filesystem::copy_file(kSchema4Monitor, path);
  // A column the migration adds, there already (a hand-edited file): the ALTER TABLE fails.
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(db, "ALTER TABLE rollups ADD COLUMN clock_max REAL", nullptr, nullptr, nullptr), SQLITE_OK);
  sqlite3_close(db);
  auto loaded = load_burnin(path);
  ASSERT_TRUE(loaded) << loaded.error().message;
  const auto before = bytes_of(path);
  platform::ManualClock clock;
  auto store = TelemetryStore::reopen(path, loaded->gpus, "test", clock, monitor_options(1));
  ASSERT_FALSE(store);
  EXPECT_NE(store.error().message.find("migrating"), std::string::npos) << store.error().message;
  EXPECT_NE(store.error().message.find("duplicate column name: clock_max"), std::string::npos) << store.error().message;
  EXPECT_EQ(query(path, "SELECT value FROM meta WHERE key = 'schema_version'"), std::vector<std::string>{"4"});
  EXPECT_EQ(query(path, "SELECT count(*) FROM segments"), std::vector<std::string>{"1"});
  EXPECT_EQ(query(path, "SELECT count(*) FROM pragma_table_info('rollups') WHERE name IN ('util_min', 'written_by_schema')"),
            std::vector<std::string>{"0"}) << "the columns added before the failure are rolled back";
  EXPECT_EQ(bytes_of(path), before) << "the run's status and the new segment are rolled back with it";
}

TEST(TelemetrySchema5, AHistoryKeepsOneSamplingInterval) {
  TempDb tmp;
  const std::string path = tmp.path("history.db");
  std::filesystem::copy_file(kSchema4Monitor, path);
  const auto before = bytes_of(path);
  auto loaded = load_burnin(path);
  ASSERT_TRUE(loaded) << loaded.error().message;
  platform::ManualClock clock;
  auto refused = TelemetryStore::reopen(path, loaded->gpus, "test", clock, monitor_options(10));
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().kind, core::ErrorKind::usage);
  EXPECT_NE(refused.error().message.find("a history sampled every 1s and this monitor samples every 10s"), std::string::npos)
      << refused.error().message;
  EXPECT_NE(refused.error().message.find("restart with --interval 1s, or give another --db"), std::string::npos);
  EXPECT_EQ(bytes_of(path), before) << "refused untouched";
  EXPECT_FALSE(std::filesystem::exists(path + "-wal"));

  // A new history records its interval in its first segment.
  auto record = analysis::testing::healthy_burnin(1, 20, 10);
  ASSERT_TRUE(TelemetryStore::create(tmp.path("ten.db"), record.run, record.gpus, clock, monitor_options()));
  EXPECT_EQ(query(tmp.path("ten.db"), "SELECT interval_s FROM segments"), std::vector<std::string>{"10.0"});
}

TEST(TelemetrySchema5, MonitorRestartedWithAnotherIntervalExitsTwoNamingBoth) {
  TempDb tmp;
  const std::string db = tmp.path("monitor.db");
  const std::vector<std::string> run = {"monitor", "--sim", "hgx-h100-8x", "--db", db, "--speed", "max",
                                        "--duration", "2m", "--listen", "127.0.0.1:0"};
  const auto first = gpuvet::testing::run_cli(run);
  ASSERT_EQ(first.exit_code, 0) << first.err;
  auto other = run;
  other.insert(other.end(), {"--interval", "10s"});
  const auto before = bytes_of(db);
  const auto refused = gpuvet::testing::run_cli(other);
  EXPECT_EQ(refused.exit_code, 2) << refused.err;
  EXPECT_NE(refused.err.find("sampled every 1s and this monitor samples every 10s"), std::string::npos) << refused.err;
  EXPECT_EQ(bytes_of(db), before);
  auto same = run;
  same.insert(same.end(), {"--interval", "1s"});
  const auto continued = gpuvet::testing::run_cli(same);
  EXPECT_EQ(continued.exit_code, 0) << continued.err;
  EXPECT_EQ(query(db, "SELECT interval_s FROM segments ORDER BY rowid"), (std::vector<std::string>{"1.0", "1.0"}));
}

}  // namespace
}  // namespace gpuvet::telemetry::testing
