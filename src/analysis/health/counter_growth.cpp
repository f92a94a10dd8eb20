// Episodes of a cumulative counter's growth (see counter_growth.hpp).
#include "analysis/health/counter_growth.hpp"

#include <algorithm>

namespace gpuvet::analysis::health {

void CounterGrowth::rise(double from_s, double t_s, std::uint64_t grown, const HealthLimits& limits) {
  const double quiet = latest_.last_rise_s >= 0 ? from_s - latest_.last_rise_s : -1;
  if (latest_.last_rise_s < 0 || quiet > limits.counter_window_s) {
    latest_ = CounterEpisode{};
    latest_.from_s = from_s;
    latest_.first_rise_s = t_s;
    ++episodes_;
  }
  latest_.growth += grown;
  latest_.last_rise_s = t_s;
  latest_.peak_per_s = std::max(latest_.peak_per_s, rate_per_s(t_s, limits));
  total_ += grown;
  ++rises_;
  if (first_rise_s_ < 0) {
    first_rise_s_ = t_s;
    first_from_s_ = from_s;
  }
  largest_episode_ = std::max(largest_episode_, latest_.growth);
  peak_per_s_ = std::max(peak_per_s_, latest_.peak_per_s);
}

void CounterGrowth::observe(double t_s, std::uint64_t value, const HealthLimits& limits) {
  if (last_value_ && value > *last_value_) rise(last_t_, t_s, value - *last_value_, limits);
  last_value_ = value;
  last_t_ = t_s;
}

void CounterGrowth::add_growth(double from_s, double to_s, std::uint64_t grown, const HealthLimits& limits) {
  if (grown > 0) rise(from_s, std::max(to_s, from_s), grown, limits);
}

void CounterGrowth::add_prior_growth(double from_s, double to_s, std::uint64_t grown) {
  prior_growth_ += grown;
  prior_end_s_ = std::max(prior_end_s_, to_s);
  if (grown > 0 && to_s > from_s) prior_per_s_ = static_cast<double>(grown) / (to_s - from_s);
}

bool CounterGrowth::active(double now_s, const HealthLimits& limits) const {
  return latest_.last_rise_s >= 0 && now_s - latest_.last_rise_s <= limits.counter_window_s;
}

double CounterGrowth::rate_per_s(double now_s, const HealthLimits& limits) const {
  if (latest_.last_rise_s < 0) return 0;
  const double span = std::max(now_s, latest_.last_rise_s) - latest_.from_s;
  return static_cast<double>(latest_.growth) / std::max(span, limits.min_rate_span_s);
}

double CounterGrowth::mean_per_s(const HealthLimits& limits) const {
  if (total_ == 0) return 0;
  return static_cast<double>(total_) / std::max(latest_.last_rise_s - first_from_s_, limits.min_rate_span_s);
}

bool CounterGrowth::only_prior_tail() const {
  if (prior_end_s_ < 0 || rises_ != 1 || episodes_ != 1) return false;
  // The one rise is in the span right after the prior one, and less than a minute of its rate.
  return latest_.from_s <= prior_end_s_ + 1 && static_cast<double>(total_) < prior_per_s_ * 60;
}

}  // namespace gpuvet::analysis::health
