// Wall time scaled by a constant factor.
#include "monitor/scaled_clock.hpp"

#include <chrono>

namespace gpuvet::monitor {

ScaledClock::ScaledClock(double speed, std::int64_t epoch_unix_ms)
    : origin_(wall_.now()), speed_(speed), epoch_unix_ms_(epoch_unix_ms) {}

platform::Clock::Duration ScaledClock::now() const {
  return std::chrono::duration_cast<Duration>((wall_.now() - origin_) * speed_);
}

void ScaledClock::sleep_until(Duration deadline) {
  const Duration wait = deadline - now();
  if (wait <= Duration::zero()) return;
  wall_.sleep_until(wall_.now() + std::chrono::duration_cast<Duration>(wait / speed_));
}

std::int64_t ScaledClock::unix_ms() const {
  return epoch_unix_ms_ + std::chrono::duration_cast<std::chrono::milliseconds>(now()).count();
}

}  // namespace gpuvet::monitor
