// The real monotonic clock and the virtual one.
#include "platform/clock.hpp"

#include <thread>

namespace gpuvet::platform {

Clock::Duration SteadyClock::now() const {
  return std::chrono::duration_cast<Duration>(std::chrono::steady_clock::now().time_since_epoch());
}

void SteadyClock::sleep_until(Duration deadline) {
  const auto remaining = deadline - now();
  if (remaining > Duration::zero()) std::this_thread::sleep_for(remaining);
}

std::int64_t SteadyClock::unix_ms() const {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

Clock::Duration ManualClock::now() const {
  std::lock_guard lock(mutex_);
  return now_;
}

void ManualClock::sleep_until(Duration deadline) {
  std::lock_guard lock(mutex_);
  if (deadline > now_) now_ = deadline;
}

std::int64_t ManualClock::unix_ms() const {
  std::lock_guard lock(mutex_);
  return epoch_unix_ms_ + std::chrono::duration_cast<std::chrono::milliseconds>(now_).count();
}

void ManualClock::advance(Duration step) {
  std::lock_guard lock(mutex_);
  now_ += step;
}

}  // namespace gpuvet::platform
