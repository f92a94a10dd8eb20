// Time as a parameter: the burn-in runner, the sampler and the telemetry store read the time and
// wait through a Clock, so the simulator runs hours in virtual time and tests never sleep.
// SteadyClock is the real monotonic clock; ManualClock only moves when told (or when waited on).
#pragma once

#include <chrono>
#include <cstdint>
#include <mutex>

namespace gpuvet::platform {

class Clock {
 public:
  using Duration = std::chrono::nanoseconds;
  virtual ~Clock() = default;
  // Monotonic time since an arbitrary origin.
  [[nodiscard]] virtual Duration now() const = 0;
  // Blocks until now() >= deadline (ManualClock: moves time forward to the deadline).
  virtual void sleep_until(Duration deadline) = 0;
  // Milliseconds since the Unix epoch (ManualClock: its epoch plus the time elapsed).
  [[nodiscard]] virtual std::int64_t unix_ms() const = 0;
  // True when time is virtual (simulation); progress output then paces itself on wall time.
  [[nodiscard]] virtual bool is_virtual() const = 0;
};

class SteadyClock final : public Clock {
 public:
  [[nodiscard]] Duration now() const override;
  void sleep_until(Duration deadline) override;
  [[nodiscard]] std::int64_t unix_ms() const override;
  [[nodiscard]] bool is_virtual() const override { return false; }
};

// Virtual time. Thread-safe; sleep_until never blocks.
class ManualClock final : public Clock {
 public:
  explicit ManualClock(std::int64_t epoch_unix_ms = 0) : epoch_unix_ms_(epoch_unix_ms) {}
  [[nodiscard]] Duration now() const override;
  void sleep_until(Duration deadline) override;
  [[nodiscard]] std::int64_t unix_ms() const override;
  [[nodiscard]] bool is_virtual() const override { return true; }
  void advance(Duration step);

 private:
  mutable std::mutex mutex_;
  Duration now_{0};
  std::int64_t epoch_unix_ms_;
};

// Seconds as a double, for samples and reports.
inline double seconds(Clock::Duration d) { return std::chrono::duration<double>(d).count(); }
inline Clock::Duration from_seconds(double s) {
  return std::chrono::duration_cast<Clock::Duration>(std::chrono::duration<double>(s));
}

}  // namespace gpuvet::platform
