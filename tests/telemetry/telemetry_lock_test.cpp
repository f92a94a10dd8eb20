// One writer per history (issue 20): while a store writes a file, another store on it (in this
// process or another) is refused at once, naming the file and the writer's pid; the lock ends with
// the writer however it ends (a killed writer's lock file blocks nothing), and readers neither need
// it nor leave anything beside the file.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <string>

#include <fmt/format.h>

#include <gtest/gtest.h>

#include "analysis/test_burnin_records.hpp"
#include "telemetry/history_gpus.hpp"
#include "telemetry/telemetry_store.hpp"
#include "telemetry_test_support.hpp"

namespace gpuvet::telemetry::testing {
namespace {

namespace fs = std::filesystem;

constexpr std::int64_t kStart = 1700000000000;  // 2023-11-14T22:13:20Z

StoreOptions monitor_options() {
  StoreOptions options;
  options.purpose = "monitor";
  options.fsync_each_commit = false;
  return options;
}

core::BurninRecord history_record() {
  auto record = analysis::testing::healthy_burnin(2, 60, 1);
  record.run.started_unix_ms = kStart;
  return record;
}

std::string refusal(const std::string& path, pid_t pid) {
  return fmt::format("{} is being written by another gpuvet (pid {}, started 2023-11-14T22:13:20Z); refusing to write it too", path,
                     pid);
}

// The files in the directory of `path`.
std::set<std::string> files_beside(const std::string& path) {
  std::set<std::string> out;
  for (const auto& e : fs::directory_iterator(fs::path(path).parent_path())) out.insert(e.path().filename().string());
  return out;
}

TEST(TelemetryLock, ASecondWriterInThisProcessIsRefusedWhileTheFirstWrites) {
  TempDb tmp;
  platform::ManualClock clock(kStart);
  const auto record = history_record();
  auto first = TelemetryStore::create(tmp.path(), record.run, record.gpus, clock, monitor_options());
  ASSERT_TRUE(first) << first.error().message;
  ASSERT_FALSE(first.value()->append(record.samples[0]));
  ASSERT_FALSE(first.value()->commit());

  auto second = TelemetryStore::reopen(tmp.path(), record.gpus, "second", clock, monitor_options());
  ASSERT_FALSE(second) << "a second store writes the history the first is writing";
  EXPECT_EQ(second.error().kind, core::ErrorKind::usage);
  EXPECT_EQ(second.error().message, refusal(tmp.path(), ::getpid()));
  // The monitor's looks before it writes, and moving the history aside, are refused the same way.
  auto gpus = read_monitor_history_gpus(tmp.path());
  ASSERT_FALSE(gpus);
  EXPECT_EQ(gpus.error().message, refusal(tmp.path(), ::getpid()));
  auto moved = move_history_aside(tmp.path(), "20240101T000000Z");
  ASSERT_FALSE(moved);
  EXPECT_EQ(moved.error().message, refusal(tmp.path(), ::getpid()));
  EXPECT_TRUE(fs::exists(tmp.path()));
  // A burn-in on the same path hears who writes it.
  auto burnin = TelemetryStore::create(tmp.path(), record.run, record.gpus, clock);
  ASSERT_FALSE(burnin);
  EXPECT_EQ(burnin.error().message, refusal(tmp.path(), ::getpid()));

  // A reader needs no lock.
  auto read = load_burnin(tmp.path());
  ASSERT_TRUE(read) << read.error().message;
  EXPECT_EQ(read->samples.size(), 1u);

  // Once the first writer is gone, the history is continued, and nothing is left beside it.
  ASSERT_FALSE(first.value()->finish(core::BurninStatus::completed, 0));
  first.value().reset();
  EXPECT_FALSE(fs::exists(tmp.path() + ".lock"));
  auto continued = TelemetryStore::reopen(tmp.path(), record.gpus, "second", clock, monitor_options());
  ASSERT_TRUE(continued) << continued.error().message;
  continued.value().reset();
  EXPECT_EQ(files_beside(tmp.path()), (std::set<std::string>{"run.db"}));
}

TEST(TelemetryLock, ALockFileLeftBehindBlocksNothing) {
  TempDb tmp;
  platform::ManualClock clock(kStart);
  const auto record = history_record();
  ASSERT_TRUE(TelemetryStore::create(tmp.path(), record.run, record.gpus, clock, monitor_options()));
  std::ofstream(tmp.path() + ".lock") << "pid 999999\nstarted 2020-01-01T00:00:00Z\n";
  auto reopened = TelemetryStore::reopen(tmp.path(), record.gpus, "again", clock, monitor_options());
  ASSERT_TRUE(reopened) << reopened.error().message;
  std::ifstream lock(tmp.path() + ".lock");
  const std::string text((std::istreambuf_iterator<char>(lock)), std::istreambuf_iterator<char>());
  EXPECT_EQ(text, fmt::format("pid {}\nstarted 2023-11-14T22:13:20Z\n", ::getpid()));
}

// Another process writes the history, then is killed: refused while it lives, continued after.
TEST(TelemetryLock, AnotherProcessHoldsItUntilItIsKilled) {
  TempDb tmp;
  const std::string path = tmp.path();
  const auto record = history_record();
  int ready[2], hold[2];
  ASSERT_EQ(::pipe(ready), 0);
  ASSERT_EQ(::pipe(hold), 0);
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    ::close(ready[0]);
    ::close(hold[1]);
    platform::ManualClock clock(kStart);
    auto store = TelemetryStore::create(path, record.run, record.gpus, clock, monitor_options());
    const char byte = store ? 1 : 0;
    if (::write(ready[1], &byte, 1) != 1) _exit(3);
    char wait = 0;
    (void)::read(hold[0], &wait, 1);  // until killed (the parent never writes)
    _exit(0);
  }
  ::close(ready[1]);
  ::close(hold[0]);
  char byte = 0;
  ASSERT_EQ(::read(ready[0], &byte, 1), 1);
  ASSERT_EQ(byte, 1) << "the child could not create the history";
  ::close(ready[0]);

  platform::ManualClock clock(kStart);
  auto refused = TelemetryStore::reopen(path, record.gpus, "second", clock, monitor_options());
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().message, refusal(path, child));

  ASSERT_EQ(::kill(child, SIGKILL), 0);
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ::close(hold[1]);
  EXPECT_TRUE(fs::exists(path + ".lock"));  // only its text stays
  auto continued = TelemetryStore::reopen(path, record.gpus, "second", clock, monitor_options());
  EXPECT_TRUE(continued) << continued.error().message;
}

}  // namespace
}  // namespace gpuvet::telemetry::testing
