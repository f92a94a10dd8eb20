// Two burn-ins started on one --db at the same moment: exactly one creates the database (O_EXCL),
// the others are told it exists or that another gpuvet writes it (the writer's lock, issue 20); a
// stale -wal of that name is refused, never replayed.
#include <atomic>
#include <filesystem>
#include <fstream>
#include <latch>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "analysis/test_burnin_records.hpp"
#include "telemetry/telemetry_store.hpp"
#include "telemetry_test_support.hpp"

namespace gpuvet::telemetry::testing {
namespace {

TEST(TelemetryCreate, OfRunsStartedTogetherExactlyOneGetsTheDatabase) {
  constexpr int kRuns = 8;
  for (int round = 0; round < 5; ++round) {
    TempDb tmp;
    const auto record = analysis::testing::healthy_burnin(2, 60, 10);
    std::latch start(kRuns);
    std::atomic<int> created{0};
    std::atomic<int> refused{0};
    std::vector<std::thread> runs;
    for (int i = 0; i < kRuns; ++i) {
      runs.emplace_back([&] {
        platform::ManualClock clock;
        start.arrive_and_wait();
        auto store = TelemetryStore::create(tmp.path(), record.run, record.gpus, clock);
        if (store) {
          ++created;
        } else if (store.error().kind == core::ErrorKind::usage &&
                   (store.error().message.find("already exists") != std::string::npos ||
                    store.error().message.find("is being written by another gpuvet (pid ") != std::string::npos)) {
          ++refused;
        }
      });
    }
    for (auto& t : runs) t.join();
    EXPECT_EQ(created.load(), 1) << "round " << round;
    EXPECT_EQ(refused.load(), kRuns - 1) << "round " << round;
    auto loaded = load_burnin(tmp.path());
    EXPECT_TRUE(loaded) << loaded.error().message;
  }
}

TEST(TelemetryCreate, AStaleWalOfThatNameIsRefused) {
  TempDb tmp;
  std::ofstream(tmp.path() + "-wal") << "left by a deleted database";
  platform::ManualClock clock;
  const auto record = analysis::testing::healthy_burnin(2, 60, 10);
  auto store = TelemetryStore::create(tmp.path(), record.run, record.gpus, clock);
  ASSERT_FALSE(store);
  EXPECT_EQ(store.error().kind, core::ErrorKind::usage);
  EXPECT_NE(store.error().message.find("-wal exists"), std::string::npos) << store.error().message;
  EXPECT_FALSE(std::filesystem::exists(tmp.path()));
}

}  // namespace
}  // namespace gpuvet::telemetry::testing
