// --out never harms a user's files and never carries another run's evidence: unrelated
// directories are refused before anything runs, another run's bundle is moved aside whole,
// foreign files are never sealed, and a resumed run re-observes the machine (issue 11). Files with
// gpuvet's own names planted between runs are neither sealed nor replayed (issue 20).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <sqlite3.h>
#include <unistd.h>

#include "accept_test_support.hpp"
#include "cli_runner.hpp"
#include "spec/spec_templates.hpp"

namespace gpuvet::accept::testing {
namespace {

namespace fs = std::filesystem;
using gpuvet::testing::run_cli;

class AcceptOutDir : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("gpuvet-out-dir-test-" + std::to_string(::getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    spec_ = (dir_ / "spec.yaml").string();
    std::ofstream(spec_) << gates_only("hgx-h100-8x");
  }
  void TearDown() override { fs::remove_all(dir_); }
  static std::string read(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  }
  fs::path dir_;
  std::string spec_;
};

TEST_F(AcceptOutDir, AnUnrelatedNonEmptyDirectoryIsRefusedAndLeftAlone) {
  const fs::path out = dir_ / "home";
  fs::create_directories(out);
  std::ofstream(out / "thesis.tex") << "chapter 1";
  auto run = run_cli({"accept", "--spec", spec_, "--sim", "hgx-h100-8x", "--out", out.string()});
  EXPECT_EQ(run.exit_code, 2) << run.err;
  EXPECT_NE(run.err.find("is not a gpuvet evidence bundle (it holds thesis.tex)"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("pass another --out"), std::string::npos) << run.err;
  EXPECT_EQ(run.err.find("[1/8]"), std::string::npos) << "refused before stage 1: " << run.err;
  EXPECT_EQ(read(out / "thesis.tex"), "chapter 1");
  EXPECT_FALSE(fs::exists(out / "MANIFEST"));
  EXPECT_EQ(std::distance(fs::directory_iterator(out), fs::directory_iterator()), 1);
}

TEST_F(AcceptOutDir, AnOutThatCannotBeWrittenFailsBeforeStageOne) {
  std::ofstream(dir_ / "a-file") << "x";
  auto run = run_cli({"accept", "--spec", spec_, "--sim", "hgx-h100-8x", "--out", (dir_ / "a-file" / "bundle").string()});
  EXPECT_NE(run.exit_code, 0);
  EXPECT_NE(run.err.find("a-file"), std::string::npos) << run.err;
  EXPECT_EQ(run.err.find("[1/8]"), std::string::npos) << run.err;
  auto file_out = run_cli({"accept", "--spec", spec_, "--sim", "hgx-h100-8x", "--out", (dir_ / "a-file").string()});
  EXPECT_EQ(file_out.exit_code, 2);
  EXPECT_NE(file_out.err.find("exists and is not a directory"), std::string::npos) << file_out.err;
}

TEST_F(AcceptOutDir, FilesGpuvetDidNotWriteAreNeverSealed) {
  const fs::path out = dir_ / "bundle";
  ASSERT_EQ(run_cli({"accept", "--spec", spec_, "--sim", "hgx-h100-8x", "--out", out.string()}).exit_code, 0);
  std::ofstream(out / "notes.txt") << "vendor says all fine";
  auto again = run_cli({"accept", "--spec", spec_, "--sim", "hgx-h100-8x", "--out", out.string()});
  EXPECT_EQ(again.exit_code, 0) << again.err;
  EXPECT_NE(again.err.find("files gpuvet did not write (notes.txt)"), std::string::npos) << again.err;
  EXPECT_EQ(read(out / "MANIFEST").find("notes.txt"), std::string::npos);
  EXPECT_NE(read(out / "report.json").find("not sealed"), std::string::npos);
  auto verify = run_cli({"verify", out.string()});
  EXPECT_EQ(verify.exit_code, 1);
  EXPECT_NE(verify.out.find("added    notes.txt"), std::string::npos) << verify.out;
}

TEST_F(AcceptOutDir, AnotherRunsBundleIsMovedAsideWholeAndTheReportSaysSo) {
  const fs::path out = dir_ / "bundle";
  ASSERT_EQ(run_cli({"accept", "--spec", spec_, "--sim", "hgx-h100-8x", "--out", out.string()}).exit_code, 0);
  const auto other_spec = (dir_ / "a100.yaml").string();
  std::ofstream(other_spec) << gates_only("hgx-a100-8x");
  auto other = run_cli({"accept", "--spec", other_spec, "--sim", "hgx-a100-8x", "--out", out.string()});
  EXPECT_EQ(other.exit_code, 0) << other.err;
  const fs::path kept = dir_ / "bundle.earlier-1";
  ASSERT_TRUE(fs::is_directory(kept)) << other.err;
  EXPECT_EQ(run_cli({"verify", kept.string()}).exit_code, 0);
  EXPECT_EQ(run_cli({"verify", out.string()}).exit_code, 0);
  EXPECT_NE(read(out / "report.json").find("bundle.earlier-1"), std::string::npos);
  EXPECT_NE(read(out / "spec.yaml").find("a100"), std::string::npos);
}

// A -wal that adds an Xid 79 to `db`: what someone would plant beside the bundle's database. A
// copy of the database is changed through SQLite and its -wal taken before the close folds it in.
std::string crafted_wal(const fs::path& db, const fs::path& scratch) {
  fs::create_directories(scratch);
  const fs::path copy = scratch / "copy.db";
  fs::copy_file(db, copy, fs::copy_options::overwrite_existing);
  sqlite3* c = nullptr;
  EXPECT_EQ(sqlite3_open(copy.c_str(), &c), SQLITE_OK);
  EXPECT_EQ(sqlite3_exec(c,
                         "PRAGMA journal_mode=WAL; PRAGMA wal_autocheckpoint=0; "
                         "INSERT INTO events (gpu, t_s, kind, code, message) VALUES (3, 60, 'xid', 79, 'PLANTED fell off the bus');",
                         nullptr, nullptr, nullptr),
            SQLITE_OK)
      << sqlite3_errmsg(c);
  std::ifstream in(scratch / "copy.db-wal", std::ios::binary);
  std::string wal{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  sqlite3_close(c);
  return wal;
}

TEST_F(AcceptOutDir, AResumedRunNeverSealsOrReplaysFilesPlantedUnderGpuvetsNames) {
  const auto spec = (dir_ / "full.yaml").string();
  std::ofstream(spec) << *spec::template_text("hgx-h100-8x");  // with the burn-in: a telemetry.db in the bundle
  const fs::path out = dir_ / "bundle";
  ASSERT_EQ(run_cli({"accept", "--spec", spec, "--sim", "hgx-h100-8x", "--out", out.string()}).exit_code, 0);
  const std::string wal = crafted_wal(out / "telemetry.db", dir_ / "scratch");
  ASSERT_FALSE(wal.empty());
  std::ofstream(out / "telemetry.db-wal", std::ios::binary) << wal;
  const auto replayed = run_cli({"report", "--db", (out / "telemetry.db").string()});
  ASSERT_EQ(replayed.exit_code, 1) << "the planted -wal is a real one: " << replayed.out;
  ASSERT_NE(replayed.out.find("xid 79: PLANTED"), std::string::npos) << replayed.out;
  fs::copy_file(out / "telemetry.db", out / "telemetry.db.earlier-9");

  auto again = run_cli({"accept", "--spec", spec, "--sim", "hgx-h100-8x", "--out", out.string()});
  EXPECT_EQ(again.exit_code, 0) << again.err;
  EXPECT_NE(again.err.find("resuming from"), std::string::npos) << again.err;
  const std::string manifest = read(out / "MANIFEST");
  EXPECT_NE(manifest.find("  telemetry.db\n"), std::string::npos) << "the database state.json recorded stays sealed";
  EXPECT_EQ(manifest.find("telemetry.db-wal"), std::string::npos) << manifest;
  EXPECT_EQ(manifest.find("telemetry.db.earlier-9"), std::string::npos) << manifest;
  // The -wal was moved aside before anything could open the database: never replayed into it.
  EXPECT_FALSE(fs::exists(out / "telemetry.db-wal"));
  EXPECT_TRUE(fs::exists(out / "telemetry.db-wal.unrecorded-1"));
  EXPECT_NE(again.err.find("telemetry.db-wal was not recorded by state.json"), std::string::npos) << again.err;
  EXPECT_NE(again.err.find("files gpuvet did not write (telemetry.db-wal.unrecorded-1, telemetry.db.earlier-9)"),
            std::string::npos)
      << again.err;
  EXPECT_NE(read(out / "report.json").find("telemetry.db.earlier-9"), std::string::npos);
  const auto report = run_cli({"report", "--db", (out / "telemetry.db").string()});
  EXPECT_EQ(report.exit_code, 0) << report.out;
  EXPECT_EQ(report.out.find("PLANTED"), std::string::npos) << report.out;
  auto verify = run_cli({"verify", out.string()});
  EXPECT_EQ(verify.exit_code, 1) << verify.out;
  EXPECT_NE(verify.out.find("added    telemetry.db.earlier-9"), std::string::npos) << verify.out;
  EXPECT_NE(verify.out.find("added    telemetry.db-wal.unrecorded-1"), std::string::npos) << verify.out;
}

TEST_F(AcceptOutDir, ADirectoryOfAUsersReportsWithoutStateIsRefusedNotMovedAside) {
  const fs::path out = dir_ / "my-reports";
  fs::create_directories(out);
  std::ofstream(out / "report.md") << "# my notes";
  std::ofstream(out / "report.json") << "{}";
  auto run = run_cli({"accept", "--spec", spec_, "--sim", "hgx-h100-8x", "--out", out.string()});
  EXPECT_EQ(run.exit_code, 2) << run.err;
  EXPECT_NE(run.err.find("is not a gpuvet evidence bundle"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("having no gpuvet state.json"), std::string::npos) << run.err;
  EXPECT_EQ(run.err.find("[1/8]"), std::string::npos) << run.err;
  EXPECT_FALSE(fs::exists(dir_ / "my-reports.earlier-1"));
  EXPECT_EQ(read(out / "report.md"), "# my notes");
  EXPECT_EQ(std::distance(fs::directory_iterator(out), fs::directory_iterator()), 2);
}

#ifdef GPUVET_FAKE_NVML_FULL
TEST_F(AcceptOutDir, ALiveMachineThatLostAGpuIsNotPassedFromTheSavedState) {
  // The reported case: a bundle of the live machine, then a GPU falls off, then a rerun into the
  // same --out. The earlier state must not stand in for the machine now in front of us.
  setenv("GPUVET_NVML_LIBRARY", GPUVET_FAKE_NVML_FULL, 1);
  setenv("GPUVET_FAKE_NVML_PROFILE", "hgx-h100-8x", 1);
  const fs::path out = dir_ / "live";
  const std::string sysfs = std::string(GPUVET_FIXTURES) + "/sysfs/hgx-2socket";
  auto first = run_cli({"accept", "--spec", spec_, "--out", out.string(), "--sysfs-root", sysfs});
  setenv("GPUVET_FAKE_NVML_FAULTS", "gpu-missing:gpu=3", 1);
  auto second = run_cli({"accept", "--spec", spec_, "--out", out.string(), "--sysfs-root", sysfs});
  unsetenv("GPUVET_FAKE_NVML_FAULTS");
  unsetenv("GPUVET_FAKE_NVML_PROFILE");
  unsetenv("GPUVET_NVML_LIBRARY");
  EXPECT_NE(first.err.find("[1/8]"), std::string::npos) << first.err;
  EXPECT_EQ(second.exit_code, 1) << second.out << second.err;
  EXPECT_NE(second.out.find("FAIL    gpu.count"), std::string::npos) << second.out;
  EXPECT_NE(second.err.find("started afresh"), std::string::npos) << second.err;
}
#endif

}  // namespace
}  // namespace gpuvet::accept::testing
