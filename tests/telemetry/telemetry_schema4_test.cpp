// Schema 4: framebuffer memory, PCIe link current/max and remapped rows go into the store and come
// back exactly; a schema 3 monitor history written by the previous gpuvet (a real file, made with
// gpuvet monitor --sim hgx-h100-8x before this change) still reads, its new fields absent with the
// reason, and a monitor continuing it keeps the file at schema 3.
#include <sqlite3.h>

#include <gtest/gtest.h>

#include <filesystem>

#include "analysis/test_burnin_records.hpp"
#include "platform/clock.hpp"
#include "telemetry/telemetry_schema.hpp"
#include "telemetry/telemetry_store.hpp"
#include "telemetry_test_support.hpp"

namespace gpuvet::telemetry::testing {
namespace {

const std::string kSchema3Monitor = std::string(GPUVET_FIXTURES) + "/telemetry/monitor-schema3-hgx-h100-8x.db";

std::string schema_version(const std::string& path) {
  sqlite3* db = nullptr;
  EXPECT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  sqlite3_stmt* st = nullptr;
  EXPECT_EQ(sqlite3_prepare_v2(db, "SELECT value FROM meta WHERE key = 'schema_version'", -1, &st, nullptr), SQLITE_OK);
  std::string out;
  if (sqlite3_step(st) == SQLITE_ROW) out = reinterpret_cast<const char*>(sqlite3_column_text(st, 0));
  sqlite3_finalize(st);
  sqlite3_close(db);
  return out;
}

void set_schema4_fields(core::TelemetrySample& s) {
  const auto gib = std::uint64_t{1} << 30;
  s.fb_total_bytes = 80 * gib;
  s.fb_used_bytes = static_cast<std::uint64_t>(s.t_s) * gib / 10 + static_cast<std::uint64_t>(s.gpu) * 12345;
  s.pcie_link_gen = s.t_s < 50 ? 1 : 5;  // idle then loaded
  s.pcie_link_width = s.gpu == 1 ? 8 : 16;
  s.pcie_link_gen_max = 5;
  s.pcie_link_width_max = 16;
  s.remapped_rows_correctable = static_cast<std::uint64_t>(s.t_s >= 70 ? 3 : 0);
  s.remapped_rows_uncorrectable = std::uint64_t{0};
  s.remap_failed = s.gpu == 1 && s.t_s >= 90;
}

TEST(TelemetrySchema4, NewFieldsRoundTripExactly) {
  TempDb tmp;
  platform::ManualClock clock;
  auto record = analysis::testing::healthy_burnin(2, 100, 10);
  for (auto& s : record.samples) {
    set_schema4_fields(s);
    if (s.gpu == 0 && s.t_s == 40) s.fb_used_bytes = core::Absent{"nvmlDeviceGetMemoryInfo_v2: NVML_ERROR_UNKNOWN"};
  }
  auto store = TelemetryStore::create(tmp.path(), record.run, record.gpus, clock);
  ASSERT_TRUE(store) << store.error().message;
  for (const auto& s : record.samples) ASSERT_FALSE(store.value()->append(s));
  ASSERT_FALSE(store.value()->finish(core::BurninStatus::completed, 100));
  store.value().reset();
  EXPECT_EQ(schema_version(tmp.path()), std::to_string(kSchemaVersion));  // 4's fields, written by every later schema

  auto loaded = load_burnin(tmp.path());
  ASSERT_TRUE(loaded) << loaded.error().message;
  ASSERT_EQ(loaded->samples.size(), record.samples.size());
  for (std::size_t i = 0; i < record.samples.size(); ++i) {
    ASSERT_EQ(loaded->samples[i], record.samples[i]) << "sample " << i;
  }
  const auto& last_gpu1 = loaded->samples.back();
  ASSERT_EQ(last_gpu1.gpu, 1);
  EXPECT_EQ(*last_gpu1.pcie_link_width, 8);
  EXPECT_TRUE(*last_gpu1.remap_failed);
}

TEST(TelemetrySchema4, ReadsASchema3HistoryWithTheNewFieldsAbsent) {
  auto loaded = load_burnin(kSchema3Monitor);
  ASSERT_TRUE(loaded) << loaded.error().message;
  ASSERT_EQ(loaded->gpus.size(), 8u);
  ASSERT_FALSE(loaded->samples.empty());
  for (const auto& s : loaded->samples) {
    EXPECT_TRUE(s.gpu_temp_c.known());
    EXPECT_TRUE(s.power_w.known());
    ASSERT_FALSE(s.fb_used_bytes.known());
    EXPECT_EQ(s.fb_used_bytes.reason(), "not recorded (a schema 3 history, before gpuvet stored this reading)");
    EXPECT_FALSE(s.pcie_link_gen_max.known());
    EXPECT_FALSE(s.remap_failed.known());
  }
}

TEST(TelemetrySchema4, AMonitorContinuingASchema3HistoryKeepsItsEncoding) {
  TempDb tmp;
  const std::string path = tmp.path("history.db");
  std::filesystem::copy_file(kSchema3Monitor, path);
  auto before = load_burnin(path);
  ASSERT_TRUE(before) << before.error().message;
  platform::ManualClock clock;
  StoreOptions options;
  options.purpose = "monitor";
  auto store = TelemetryStore::reopen(path, before->gpus, "test source", clock, options);
  ASSERT_TRUE(store) << store.error().message;
  const double t0 = before->samples.back().t_s + 1;
  for (int gpu = 0; gpu < 8; ++gpu) {
    core::TelemetrySample s = before->samples[static_cast<std::size_t>(gpu)];
    s.t_s = t0;
    s.unix_ms += 100000;
    set_schema4_fields(s);
    ASSERT_FALSE(store.value()->append(s));
  }
  ASSERT_FALSE(store.value()->finish(core::BurninStatus::interrupted, t0));
  store.value().reset();
  EXPECT_EQ(schema_version(path), "3");

  auto after = load_burnin(path);
  ASSERT_TRUE(after) << after.error().message;
  ASSERT_EQ(after->samples.size(), before->samples.size() + 8);
  for (std::size_t i = 0; i < before->samples.size(); ++i) ASSERT_EQ(after->samples[i], before->samples[i]) << i;
  const auto& added = after->samples.back();
  EXPECT_EQ(added.t_s, t0);
  EXPECT_EQ(added.gpu_temp_c, before->samples[7].gpu_temp_c);
  EXPECT_FALSE(added.pcie_link_gen.known());
  EXPECT_FALSE(added.fb_total_bytes.known());
}

}  // namespace
}  // namespace gpuvet::telemetry::testing
