// DeadlineCaller, the monitor's guard against NVML calls that hang: a call that returns in time
// is run and waited for; one that does not is abandoned, its GPU stays busy (never called again)
// until the call returns, and the other GPUs are served at once by a fresh worker. The blocked
// call waits on a promise the test releases; the only real wait is the 50 ms deadline itself.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <future>
#include <stdexcept>
#include <thread>

#include "monitor/deadline_caller.hpp"

namespace gpuvet::monitor {
namespace {

TEST(DeadlineCaller, CallsThatReturnAreWaitedFor) {
  DeadlineCaller caller(5.0);
  int value = 0;
  EXPECT_TRUE(caller.run(0, [&] { value = 42; }));
  EXPECT_EQ(value, 42);
  EXPECT_TRUE(caller.run(1, [&] { value = 7; }));
  EXPECT_EQ(value, 7);
  EXPECT_EQ(caller.hung_calls(), 0u);
}

TEST(DeadlineCaller, AHungCallIsAbandonedAndOnlyItsGpuWaits) {
  DeadlineCaller caller(0.05);
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  auto finished = std::make_shared<std::atomic<bool>>(false);
  EXPECT_FALSE(caller.run(3, [released, finished] {
    released.wait();
    finished->store(true);
  }));
  EXPECT_TRUE(caller.busy(3));
  EXPECT_EQ(caller.hung_calls(), 1u);

  bool called = false;
  EXPECT_FALSE(caller.run(3, [&] { called = true; }));  // not called while the first is inside
  EXPECT_FALSE(called);
  int other = 0;
  EXPECT_TRUE(caller.run(4, [&] { other = 4; }));  // a fresh worker serves the other GPUs
  EXPECT_EQ(other, 4);

  release.set_value();
  for (int i = 0; i < 200 && caller.busy(3); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  EXPECT_FALSE(caller.busy(3));
  EXPECT_TRUE(finished->load());
  EXPECT_EQ(caller.hung_calls(), 0u);
  EXPECT_TRUE(caller.run(3, [&] { called = true; }));  // answered: called again
  EXPECT_TRUE(called);
}

TEST(DeadlineCaller, AThrowingCallDoesNotEscapeTheWorker) {
  DeadlineCaller caller(5.0);
  EXPECT_TRUE(caller.run(0, [] { throw std::runtime_error("vendor library threw"); }));
  int value = 0;
  EXPECT_TRUE(caller.run(0, [&] { value = 1; }));
  EXPECT_EQ(value, 1);
}

}  // namespace
}  // namespace gpuvet::monitor
