// Running min/mean/max and counter growth of one GPU's samples over a period.
#include "telemetry/period_rollup.hpp"

#include <algorithm>
#include <cmath>

namespace gpuvet::telemetry {

namespace {

constexpr std::uint64_t kThrottleBits = core::clocks_event::throttling;

// The sum over links of one NVLink counter; absent when no link reported it.
std::optional<std::uint64_t> link_sum(const core::TelemetrySample& s, core::Reading<std::uint64_t> core::NvLinkErrorSample::*a,
                                      core::Reading<std::uint64_t> core::NvLinkErrorSample::*b = nullptr) {
  if (!s.nvlink.known()) return std::nullopt;
  std::optional<std::uint64_t> sum;
  for (const auto& link : *s.nvlink) {
    for (auto member : {a, b}) {
      if (member && (link.*member).known()) sum = sum.value_or(0) + *(link.*member);
    }
  }
  return sum;
}

std::optional<std::uint64_t> counter(const core::Reading<std::uint64_t>& r) {
  return r.known() ? std::optional<std::uint64_t>(*r) : std::nullopt;
}

}  // namespace

void PeriodAccumulator::Stat::add(double v) {
  if (!std::isfinite(v)) return;
  min = n == 0 ? v : std::min(min, v);
  max = n == 0 ? v : std::max(max, v);
  sum += v;
  ++n;
}

RollupStat PeriodAccumulator::Stat::result() const {
  if (n == 0) return {};
  return {min, sum / static_cast<double>(n), max};
}

void PeriodAccumulator::Counter::add(std::uint64_t value) {
  if (last) {
    if (value > *last) grown += value - *last;
    measured = true;
  }
  last = value;
}

void PeriodAccumulator::reset_period(std::int64_t period) {
  period_ = period;
  samples_ = throttled_ = 0;
  t_sum_ = 0;
  throttled_from_s_.reset();
  throttled_to_s_.reset();
  stats_ = {};
  for (auto& c : counters_) {
    c.grown = 0;
    c.measured = false;
  }
}

std::optional<PeriodAccumulator::Closed> PeriodAccumulator::add(const core::TelemetrySample& s) {
  std::optional<Closed> finished;
  const auto period = static_cast<std::int64_t>(std::floor(s.t_s / period_s_));
  if (period != period_) {
    finished = take();
    reset_period(period);
  }
  gpu_ = s.gpu;
  ++samples_;
  t_sum_ += s.t_s;
  const core::Reading<double>* values[kStats] = {&s.util_gpu_pct, &s.gpu_temp_c, &s.power_w, &s.sm_clock_mhz, &s.tflops};
  for (std::size_t i = 0; i < kStats; ++i) {
    if (values[i]->known()) stats_[i].add(**values[i]);
  }
  if (s.clocks_event_reasons.known() && (*s.clocks_event_reasons & kThrottleBits) != 0) {
    ++throttled_;
    if (!throttled_from_s_) throttled_from_s_ = s.t_s;
    throttled_to_s_ = s.t_s;
  }
  using L = core::NvLinkErrorSample;
  const std::optional<std::uint64_t> counters[kCounters] = {
      link_sum(s, &L::crc_flit, &L::crc_data), link_sum(s, &L::replay),     link_sum(s, &L::recovery),
      counter(s.ecc_corrected),                counter(s.ecc_uncorrected), counter(s.pcie_replays),
  };
  for (std::size_t i = 0; i < kCounters; ++i) {
    if (counters[i]) counters_[i].add(*counters[i]);
  }
  return finished;
}

std::optional<PeriodAccumulator::Closed> PeriodAccumulator::take() {
  if (samples_ == 0) return std::nullopt;
  Closed out;
  out.period = period_;
  PeriodRollup& r = out.rollup;
  r.gpu = gpu_;
  r.samples = samples_;
  r.t_s = t_sum_ / static_cast<double>(samples_);
  r.util_gpu_pct = stats_[kUtil].result();
  r.gpu_temp_c = stats_[kTemp].result();
  r.power_w = stats_[kPower].result();
  r.sm_clock_mhz = stats_[kClock].result();
  r.throttled = throttled_;
  r.throttled_from_s = throttled_from_s_;
  r.throttled_to_s = throttled_to_s_;
  // Under load: the samples whose TFLOP/s was read (a finite value).
  r.loaded = stats_[kTflops].n;
  r.tflops = stats_[kTflops].result().mean;
  std::optional<std::uint64_t>* grown[kCounters] = {&r.nvlink_crc_new,    &r.nvlink_replay_new,   &r.nvlink_recovery_new,
                                                    &r.ecc_corrected_new, &r.ecc_uncorrected_new, &r.pcie_replays_new};
  for (std::size_t i = 0; i < kCounters; ++i) {
    if (counters_[i].measured) *grown[i] = counters_[i].grown;
  }
  samples_ = 0;
  return out;
}

}  // namespace gpuvet::telemetry
