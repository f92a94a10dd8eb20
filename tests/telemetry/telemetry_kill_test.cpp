// A run killed with SIGKILL keeps everything up to its last commit: a child process writes
// samples in real time (the one test that must use the wall clock: durability is about real
// time), the parent kills it mid-run, and the database still opens with at most the last
// second missing.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include <gtest/gtest.h>

#include "analysis/test_burnin_records.hpp"
#include "telemetry/telemetry_store.hpp"
#include "telemetry_test_support.hpp"

namespace gpuvet::telemetry::testing {
namespace {

std::int64_t unix_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

// The child: samples of 8 GPUs every 50 ms until killed. Never returns.
[[noreturn]] void write_until_killed(const std::string& path, int ready_fd) {
  platform::SteadyClock clock;
  auto record = analysis::testing::healthy_burnin(8, 1, 1);
  core::BurninRunInfo run;
  run.source = "kill test";
  run.interval_s = 0.05;
  run.planned_duration_s = 3600;
  auto store = TelemetryStore::create(path, run, record.gpus, clock);
  if (!store) _exit(2);
  const char byte = 1;
  if (write(ready_fd, &byte, 1) != 1) _exit(3);
  for (long tick = 1;; ++tick) {
    for (auto s : record.samples) {
      s.t_s = static_cast<double>(tick) * 0.05;
      s.unix_ms = unix_ms();
      if (store.value()->append(s)) _exit(4);
    }
    if (store.value()->end_tick()) _exit(5);
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
}

TEST(TelemetryKill, SigkillLosesAtMostTheLastSecond) {
  TempDb tmp;
  const std::string path = tmp.path();
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    close(fds[0]);
    write_until_killed(path, fds[1]);
  }
  close(fds[1]);
  char byte = 0;
  ASSERT_EQ(read(fds[0], &byte, 1), 1) << "the child could not create the database";
  close(fds[0]);
  std::this_thread::sleep_for(std::chrono::milliseconds(2300));
  const std::int64_t killed_at = unix_ms();
  ASSERT_EQ(kill(child, SIGKILL), 0);
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFSIGNALED(status)) << "the child exited by itself with " << WEXITSTATUS(status);

  auto record = load_burnin(path);
  ASSERT_TRUE(record) << record.error().message;
  ASSERT_FALSE(record->samples.empty());
  EXPECT_EQ(record->run.status, core::BurninStatus::running);  // never finished: a crash
  std::int64_t last = 0;
  for (const auto& s : record->samples) last = std::max(last, s.unix_ms);
  // Everything written more than a second before the kill survived (plus scheduling slack).
  EXPECT_GE(last, killed_at - 1000 - 250) << "lost " << killed_at - last << " ms";
  // Whole ticks only: a commit never splits the 8 samples of a tick.
  EXPECT_EQ(record->samples.size() % 8, 0u);
}

}  // namespace
}  // namespace gpuvet::telemetry::testing
