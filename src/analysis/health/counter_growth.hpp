// The one counter type of the health judge: a cumulative counter (NVLink CRC/replay/recovery, ECC,
// PCIe replays, retired pages, remapped rows) watched for growth in episodes. An episode starts at
// the first rise after a quiet span of HealthLimits::counter_window_s and lasts while the counter
// keeps rising within it. Fed readings (samples) or a span's growth (rollups), in time order.
// What the daemon shows live (the latest episode, its rate as of now) and what a report shows
// for a period (every episode's worst) are read from the same state. Memory: fixed.
#pragma once

#include <cstdint>
#include <optional>

#include "analysis/health/health_limits.hpp"

namespace gpuvet::analysis::health {

struct CounterEpisode {
  double from_s = -1;        // the reading before its first rise: where the growth began
  double first_rise_s = -1;  // the first reading that rose
  double last_rise_s = -1;
  std::uint64_t growth = 0;
  // The highest rate it reached: growth so far / max(span so far, min_rate_span_s), at each rise.
  // The live rate never exceeds it, so the daemon's worst moment and a report's agree.
  double peak_per_s = 0;
};

class CounterGrowth {
 public:
  // A cumulative reading at run time t_s. A value below the last is a reset (driver reload):
  // the new value is the baseline, nothing grew.
  void observe(double t_s, std::uint64_t value, const HealthLimits& limits);
  // `grown` between from_s and to_s, known only in sum (an hourly or minute rollup): one rise at
  // to_s from a reading at from_s.
  void add_growth(double from_s, double to_s, std::uint64_t grown, const HealthLimits& limits);
  // Growth known from before the judged period (the rollup hour before it): sets the episode the
  // period may start inside, without counting toward the period.
  void add_prior_growth(double from_s, double to_s, std::uint64_t grown);

  [[nodiscard]] bool grew() const { return total_ > 0; }
  [[nodiscard]] std::uint64_t total() const { return total_; }
  [[nodiscard]] std::size_t episodes() const { return episodes_; }
  [[nodiscard]] double first_rise_s() const { return first_rise_s_; }
  [[nodiscard]] double last_rise_s() const { return latest_.last_rise_s; }
  [[nodiscard]] std::uint64_t largest_episode() const { return largest_episode_; }
  [[nodiscard]] double peak_per_s() const { return peak_per_s_; }
  // The reading before the first rise: where the period's growth began.
  [[nodiscard]] double first_from_s() const { return first_from_s_; }
  // The period's growth over the span it grew in (first_from_s to the last rise, at least the
  // minimum span): a counter that grew for an hour of a week grew at that rate.
  [[nodiscard]] double mean_per_s(const HealthLimits& limits) const;
  [[nodiscard]] const CounterEpisode& latest() const { return latest_; }
  // The latest episode rose within the window before now_s: the daemon's alert is up.
  [[nodiscard]] bool active(double now_s, const HealthLimits& limits) const;
  // The latest episode's rate as of now_s (its growth over max(now - from, min span)).
  [[nodiscard]] double rate_per_s(double now_s, const HealthLimits& limits) const;
  // Everything the period saw is the tail of growth that began before it: one span's growth
  // at the period's start of less than a minute at the prior span's rate.
  [[nodiscard]] bool only_prior_tail() const;
  [[nodiscard]] std::uint64_t prior_growth() const { return prior_growth_; }

 private:
  void rise(double from_s, double t_s, std::uint64_t grown, const HealthLimits& limits);
  std::optional<std::uint64_t> last_value_;
  double last_t_ = 0;
  CounterEpisode latest_;
  std::uint64_t total_ = 0, largest_episode_ = 0, prior_growth_ = 0;
  double first_rise_s_ = -1, first_from_s_ = -1, peak_per_s_ = 0;
  double prior_end_s_ = -1, prior_per_s_ = 0;
  std::size_t episodes_ = 0, rises_ = 0;
};

}  // namespace gpuvet::analysis::health
