// Virtual time for `gpuvet monitor --sim --speed N`: N simulated seconds pass per wall second, so
// the daemon's own pacing (sleep to the next tick) runs N times faster and a simulated week takes
// minutes while HTTP clients and Prometheus scrape it in real time. Thread-safe (reads only).
#pragma once

#include <cstdint>

#include "platform/clock.hpp"

namespace gpuvet::monitor {

// --speed N: the range both `gpuvet monitor --sim` and `gpuvet monitor rules` accept (fractions
// allowed); 1 is real time, and a slower-than-real simulation has no use.
inline constexpr double kMinSpeed = 1;
inline constexpr double kMaxSpeed = 1e7;

class ScaledClock final : public platform::Clock {
 public:
  // Virtual time starts at 0 now; unix_ms() starts at `epoch_unix_ms`.
  ScaledClock(double speed, std::int64_t epoch_unix_ms);
  [[nodiscard]] Duration now() const override;
  void sleep_until(Duration deadline) override;
  [[nodiscard]] std::int64_t unix_ms() const override;
  [[nodiscard]] bool is_virtual() const override { return true; }

 private:
  platform::SteadyClock wall_;
  Duration origin_;
  double speed_;
  std::int64_t epoch_unix_ms_;
};

}  // namespace gpuvet::monitor
