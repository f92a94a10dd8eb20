// What a finishing accept run seals (issue 20): only the files it wrote and those state.json
// recorded with their digests; a telemetry sidecar nobody recorded is moved aside before SQLite
// can replay it; and the numbers of a report.json read back are those hardware can give.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <limits>
#include <string>

#include <gtest/gtest.h>

#include "bundle/bundle_dir.hpp"
#include "bundle/recorded_files.hpp"
#include "bundle/checked_report.hpp"
#include "bundle/sha256.hpp"

namespace gpuvet::bundle {
namespace {

namespace fs = std::filesystem;

class RecordedFilesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("gpuvet-recorded-" + std::to_string(::getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  void put(const std::string& name, const std::string& text) { ASSERT_TRUE(write_file(dir_, name, text).ok()); }
  fs::path dir_;
};

TEST_F(RecordedFilesTest, TelemetryNames) {
  for (const char* name : {"telemetry.db", "telemetry.db-wal", "telemetry.db-shm", "telemetry.db.earlier-12",
                           "telemetry.db.earlier-2-journal"}) {
    EXPECT_TRUE(is_telemetry_file(name)) << name;
  }
  for (const char* name : {"telemetry.db.earlier-", "telemetry.db-wal.unrecorded-1", "telemetry.dbx", "report.json"}) {
    EXPECT_FALSE(is_telemetry_file(name)) << name;
  }
}

TEST_F(RecordedFilesTest, WhatThisRunCreatesAndMovesIsRecordedUnderItsNewName) {
  RecordedFiles files;
  ASSERT_TRUE(fresh_file(dir_, "telemetry.db", &files).ok());
  put("telemetry.db", "first attempt");
  ASSERT_TRUE(files.record(dir_).ok());
  ASSERT_EQ(files.digests().size(), 1u);
  EXPECT_EQ(files.digests().at("telemetry.db"), sha256_hex("first attempt"));
  ASSERT_TRUE(fresh_file(dir_, "telemetry.db", &files).ok());
  put("telemetry.db", "second attempt");
  ASSERT_TRUE(files.record(dir_).ok());
  EXPECT_EQ(files.digests().at("telemetry.db.earlier-1"), sha256_hex("first attempt"));
  EXPECT_EQ(files.digests().at("telemetry.db"), sha256_hex("second attempt"));
}

TEST_F(RecordedFilesTest, AnOrphanWalIsMovedAwayFromANewDatabase) {
  put("telemetry.db-wal", "a log without its database");
  ASSERT_TRUE(fresh_file(dir_, "telemetry.db").ok());
  EXPECT_FALSE(fs::exists(dir_ / "telemetry.db-wal")) << "SQLite would replay it into the new database";
  EXPECT_TRUE(fs::exists(dir_ / "telemetry.db.earlier-1-wal"));
}

TEST_F(RecordedFilesTest, OnResumeUnrecordedSidecarsGoAsideAndChangedFilesAreForgotten) {
  put("telemetry.db", "recorded");
  put("telemetry.db-wal", "planted");
  put("telemetry.db.earlier-1", "recorded, then edited");
  put("telemetry.db.earlier-1-shm", "planted");
  RecordedFiles files({{"telemetry.db", sha256_hex("recorded")}, {"telemetry.db.earlier-1", sha256_hex("recorded")},
                       {"telemetry.db.earlier-2", sha256_hex("gone")}});
  auto notes = vet_recorded_files(dir_, files);
  ASSERT_TRUE(notes.ok()) << notes.error().message;
  ASSERT_EQ(notes->size(), 2u);
  EXPECT_NE(notes->front().find("telemetry.db-wal was not recorded by state.json"), std::string::npos) << notes->front();
  EXPECT_TRUE(fs::exists(dir_ / "telemetry.db-wal.unrecorded-1"));
  EXPECT_TRUE(fs::exists(dir_ / "telemetry.db.earlier-1-shm.unrecorded-1"));
  EXPECT_FALSE(fs::exists(dir_ / "telemetry.db-wal"));
  ASSERT_EQ(files.digests().size(), 1u);
  EXPECT_TRUE(files.digests().contains("telemetry.db"));
}

TEST_F(RecordedFilesTest, TheSealTakesTheRunsFilesAndNamesEverythingElse) {
  put("report.json", "{}");
  put("state.json", "{}");
  put("telemetry.db", "recorded");
  put("telemetry.db.earlier-9", "planted");
  put("notes.txt", "a user's");
  put("report.json.tmp", "stray");
  fs::create_directories(dir_ / "extra");
  const RecordedFiles files({{"telemetry.db", sha256_hex("recorded")}});
  auto plan = plan_seal(dir_, files);
  ASSERT_TRUE(plan.ok()) << plan.error().message;
  EXPECT_EQ(plan->foreign, (std::vector<std::string>{"extra/", "notes.txt", "report.json.tmp", "telemetry.db.earlier-9"}));
  ASSERT_TRUE(seal_bundle(dir_, *plan).ok());
  std::ifstream in(dir_ / "MANIFEST");
  const std::string manifest{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  EXPECT_EQ(manifest, sha256_hex("{}") + "  report.json\n" + sha256_hex("{}") + "  state.json\n" + sha256_hex("recorded") +
                          "  telemetry.db\n");
}

// A report with one clause: the number `measured` in `unit`.
accept::AcceptReport report_with(const std::string& id, const std::string& unit, double measured) {
  accept::AcceptReport r;
  r.stages.emplace_back();
  r.stages[0].clauses.emplace_back();
  r.stages[0].clauses[0].id = id;
  r.stages[0].clauses[0].unit = unit;
  r.stages[0].clauses[0].measured = measured;
  return r;
}

TEST(ReportNumbers, ImpossibleValuesAreRefusedNamingTheFileAndTheField) {
  const auto error = [](const accept::AcceptReport& r) {
    auto e = check_report_numbers(r, "b/report.json");
    return e ? e->message : std::string();
  };
  EXPECT_EQ(error(report_with("collectives.all_reduce.all", "GB/s", 480.5)), "");
  EXPECT_EQ(error(report_with("gpu.count", "", 8)), "");
  EXPECT_NE(error(report_with("collectives.all_reduce.all", "GB/s", 1e308))
                .find("b/report.json: stages[0].clauses[0].measured (collectives.all_reduce.all): 1e+308 is above 10000 GB/s"),
            std::string::npos);
  EXPECT_NE(error(report_with("gpu.count", "", 1e308)).find("stages[0].clauses[0].measured (gpu.count): 1e+308 is above 1e+06"),
            std::string::npos);
  EXPECT_NE(error(report_with("gpu.count", "", 7.5)).find("7.5 is not a whole number"), std::string::npos);
  EXPECT_NE(error(report_with("gpu.memory", "GiB", -80)).find("-80 is negative"), std::string::npos);
  EXPECT_NE(error(report_with("burnin", "h", std::numeric_limits<double>::infinity())).find("inf is infinite"), std::string::npos);
  auto chart = report_with("gpu.count", "", 8);
  chart.stages[0].series.push_back({"GEMM", "TFLOP/s", {"GPU 0"}, {{{0, 700}, {60, 2e6}}}, {}, {}});
  EXPECT_NE(error(chart).find("stages[0].series[0].lines[0].points[1][1]: 2e+06 is above 100000 TFLOP/s"), std::string::npos)
      << error(chart);
  auto gpu = report_with("gpu.count", "", 8);
  gpu.other_findings.push_back({"x", core::Severity::warn, {-1}, "", {}, ""});
  EXPECT_NE(error(gpu).find("other_findings[0].gpus[0]: GPU index -1"), std::string::npos);
  // The burn-in's steady state is read back as a baseline: its numbers are believed no further.
  auto steady = report_with("gpu.count", "", 8);
  steady.stages[0].steady_state = std::vector<accept::BurninSteadyState>{{0, 64.0, 689.4, 1782.0}};
  EXPECT_EQ(error(steady), "");
  (*steady.stages[0].steady_state)[0].median_temp_c = 1e308;
  EXPECT_NE(error(steady).find("stages[0].steady_state[0].median_temp_c: 1e+308 is above 200 \xc2\xb0""C"), std::string::npos)
      << error(steady);
  (*steady.stages[0].steady_state)[0] = {5000, std::nullopt, -1.0, std::nullopt};
  EXPECT_NE(error(steady).find("stages[0].steady_state[0].gpu: GPU index 5000"), std::string::npos) << error(steady);
  (*steady.stages[0].steady_state)[0].gpu = 0;
  EXPECT_NE(error(steady).find("stages[0].steady_state[0].median_power_w: -1 is negative"), std::string::npos) << error(steady);
  // Issue 20 review: a clock of 0 was accepted and the GPU's clock drift then skipped in silence.
  (*steady.stages[0].steady_state)[0] = {0, 64.0, 689.4, 0.0};
  EXPECT_NE(error(steady).find("steady_state[0].median_sm_clock_mhz: 0 MHz"), std::string::npos) << error(steady);
  steady.stages[0].steady_state = std::vector<accept::BurninSteadyState>{{1, 64.0, 689.4, 1782.0}, {1, 65.0, 690.0, 1780.0}};
  EXPECT_NE(error(steady).find("steady_state[1].gpu: GPU 1 is listed twice"), std::string::npos) << error(steady);
}

}  // namespace
}  // namespace gpuvet::bundle
