// A burn-in database is evidence: reading it (load_burnin, `gpuvet report --db`) leaves every byte
// and the file set beside it as they were, for a finished run and for a killed one whose last
// commits are still in the -wal (which is read completely); and a path that is not a readable
// regular file is bad input (exit 2) naming the reason.
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>

#include <gtest/gtest.h>

#include "analysis/test_burnin_records.hpp"
#include "cli/cli_runner.hpp"
#include "telemetry/telemetry_store.hpp"
#include "telemetry_test_support.hpp"

namespace gpuvet::telemetry::testing {
namespace {

namespace fs = std::filesystem;
using gpuvet::testing::run_cli;

// Every file of `dir` with its bytes.
std::map<std::string, std::string> snapshot(const fs::path& dir) {
  std::map<std::string, std::string> out;
  for (const auto& entry : fs::directory_iterator(dir)) {
    std::ifstream in(entry.path(), std::ios::binary);
    out[entry.path().filename().string()] = {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  }
  return out;
}

// TMPDIR pointed at a fresh directory for the test, so what the reader leaves there shows.
class PrivateTmp {
 public:
  explicit PrivateTmp(const fs::path& dir) : dir_(dir) {
    fs::create_directories(dir_);
    const char* old = std::getenv("TMPDIR");
    if (old) old_ = old;
    ::setenv("TMPDIR", dir_.c_str(), 1);
  }
  ~PrivateTmp() {
    if (old_.empty()) {
      ::unsetenv("TMPDIR");
    } else {
      ::setenv("TMPDIR", old_.c_str(), 1);
    }
  }
  [[nodiscard]] bool empty() const { return fs::is_empty(dir_); }

 private:
  fs::path dir_;
  std::string old_;
};

TEST(TelemetryEvidence, FinishedRunIsReadWithoutChangingAByte) {
  TempDb tmp;
  const fs::path bundle = fs::path(tmp.path("bundle"));
  fs::create_directories(bundle);
  const std::string db = (bundle / "telemetry.db").string();
  platform::ManualClock clock;
  auto record = analysis::testing::healthy_burnin(4, 600, 10);
  {
    auto store = TelemetryStore::create(db, record.run, record.gpus, clock);
    ASSERT_TRUE(store) << store.error().message;
    for (const auto& s : record.samples) ASSERT_FALSE(store.value()->append(s));
    ASSERT_FALSE(store.value()->finish(core::BurninStatus::completed, 600));
  }
  const auto before = snapshot(bundle);
  ASSERT_EQ(before.size(), 1u) << "a closed database leaves no -wal or -shm";

  auto loaded = load_burnin(db);
  ASSERT_TRUE(loaded) << loaded.error().message;
  EXPECT_EQ(loaded->samples.size(), record.samples.size());
  EXPECT_EQ(snapshot(bundle), before) << "no checkpoint, no -shm or -wal created";
  const auto report = run_cli({"report", "--db", db});
  EXPECT_EQ(report.exit_code, 0) << report.err;
  EXPECT_EQ(snapshot(bundle), before);
}

TEST(TelemetryEvidence, KilledRunIsReadCompletelyFromItsWalAndLeftAsItWas) {
  TempDb tmp;
  const fs::path bundle = fs::path(tmp.path("bundle"));
  fs::create_directories(bundle);
  const std::string db = (bundle / "telemetry.db").string();
  auto record = analysis::testing::healthy_burnin(4, 600, 10);
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    // The writer commits every sample, then dies without closing: everything stays in the -wal.
    platform::ManualClock clock;
    auto store = TelemetryStore::create(db, record.run, record.gpus, clock);
    if (!store) _exit(2);
    for (const auto& s : record.samples) {
      if (store.value()->append(s)) _exit(3);
    }
    if (store.value()->commit()) _exit(4);
    _exit(0);
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
  ASSERT_TRUE(fs::exists(db + "-wal"));
  ASSERT_GT(fs::file_size(db + "-wal"), 0u) << "the commits must be in the -wal for this test to mean anything";
  const auto before = snapshot(bundle);

  PrivateTmp scratch(tmp.path("scratch"));
  auto loaded = load_burnin(db);
  ASSERT_TRUE(loaded) << loaded.error().message;
  EXPECT_EQ(loaded->samples.size(), record.samples.size()) << "every committed sample, read from the -wal";
  EXPECT_EQ(loaded->run.status, core::BurninStatus::running);
  EXPECT_EQ(snapshot(bundle), before) << "the -wal, -shm and database keep every byte";
  EXPECT_TRUE(scratch.empty()) << "the private copy is removed";
  const auto report = run_cli({"report", "--db", db});
  EXPECT_EQ(report.exit_code, 3) << report.out << report.err;  // killed: incomplete
  EXPECT_EQ(snapshot(bundle), before);
}

TEST(TelemetryEvidence, WhatIsNotARegularFileIsBadInputWithTheReason) {
  TempDb tmp;
  fs::create_directories(tmp.path("a-directory"));
  const auto dir = run_cli({"report", "--db", tmp.path("a-directory")});
  EXPECT_EQ(dir.exit_code, 2) << dir.err;
  EXPECT_NE(dir.err.find("a directory"), std::string::npos) << dir.err;

  ASSERT_EQ(::mkfifo(tmp.path("fifo").c_str(), 0600), 0);
  const auto fifo = run_cli({"report", "--db", tmp.path("fifo")});  // never waits for a writer
  EXPECT_EQ(fifo.exit_code, 2) << fifo.err;
  EXPECT_NE(fifo.err.find("a FIFO"), std::string::npos) << fifo.err;

  std::ofstream(tmp.path("text.db")) << "not a database\n";
  const auto text = run_cli({"report", "--db", tmp.path("text.db")});
  EXPECT_EQ(text.exit_code, 2) << text.err;
  EXPECT_NE(text.err.find("not a gpuvet history database (burn-in or monitor; SQLite: file is not a database)"), std::string::npos) << text.err;

  const auto missing = run_cli({"report", "--db", tmp.path("missing.db")});
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.err.find("no such file"), std::string::npos) << missing.err;
}

TEST(TelemetryEvidence, UnreadableFileIsBadInputNamingPermission) {
  if (::geteuid() == 0) GTEST_SKIP() << "root reads any file: permission cannot be denied here";
  TempDb tmp;
  std::ofstream(tmp.path("locked.db")) << "x";
  fs::permissions(tmp.path("locked.db"), fs::perms::none);
  const auto locked = run_cli({"report", "--db", tmp.path("locked.db")});
  EXPECT_EQ(locked.exit_code, 2) << locked.err;
  EXPECT_NE(locked.err.find("Permission denied"), std::string::npos) << locked.err;
}

}  // namespace
}  // namespace gpuvet::telemetry::testing
