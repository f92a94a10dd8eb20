// Buckets samples and minute rollups into per-GPU trend points (means, counter growth).
#include "analysis/trend_history.hpp"

#include <algorithm>
#include <cmath>
#include <ctime>

#include <fmt/format.h>

namespace gpuvet::analysis {

namespace {

enum Field { power, temp, clock, util };

// CRC flit + data + replay + recovery over every link whose counters are known; absent when none is.
std::optional<std::uint64_t> nvlink_total(const core::TelemetrySample& s) {
  if (!s.nvlink.known()) return std::nullopt;
  std::optional<std::uint64_t> total;
  for (const auto& link : *s.nvlink) {
    for (const auto* r : {&link.crc_flit, &link.crc_data, &link.replay, &link.recovery}) {
      if (r->known()) total = total.value_or(0) + r->value();
    }
  }
  return total;
}

std::optional<std::uint64_t> known(const core::Reading<std::uint64_t>& r) {
  return r.known() ? std::optional<std::uint64_t>(*r) : std::nullopt;
}

// Adds the growth from `last` to `now` (a counter reset, e.g. a driver reload, counts from zero)
// into `growth`, and remembers `now`.
void grow(std::optional<std::uint64_t>& growth, std::optional<std::uint64_t>& last, std::optional<std::uint64_t> now) {
  if (!now) return;
  if (last) growth = growth.value_or(0) + (*now >= *last ? *now - *last : *now);
  last = now;
}

}  // namespace

double trend_bucket_s(double period_s) {
  for (double bucket : {60.0, 300.0, 900.0, 3600.0, 6 * 3600.0}) {
    if (period_s / bucket <= static_cast<double>(kMaxTrendPoints)) return bucket;
  }
  return 24 * 3600.0;
}

std::string utc_minute(std::int64_t unix_ms) {
  const std::time_t seconds = static_cast<std::time_t>(unix_ms / 1000);
  std::tm tm{};
  ::gmtime_r(&seconds, &tm);
  return fmt::format("{:04}-{:02}-{:02} {:02}:{:02} UTC", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min);
}

TrendAccumulator::TrendAccumulator(std::int64_t from_unix_ms, std::int64_t to_unix_ms, double bucket_s, double interval_s,
                                   const std::vector<core::BurninGpu>& gpus)
    : from_ms_(from_unix_ms), to_ms_(to_unix_ms), bucket_s_(bucket_s), interval_s_(interval_s), gpus_(gpus) {}

std::int64_t TrendAccumulator::bucket_of(std::int64_t unix_ms) const {
  const auto width = static_cast<std::int64_t>(std::llround(bucket_s_ * 1000));
  return (unix_ms - from_ms_) / width;
}

void TrendAccumulator::add_sample(const core::TelemetrySample& s) {
  if (s.unix_ms < from_ms_ || s.unix_ms > to_ms_) return;
  Sums& b = buckets_[s.gpu][bucket_of(s.unix_ms)];
  ++b.samples;
  if (s.tflops.known()) ++b.loaded;
  const core::Reading<double>* fields[] = {&s.power_w, &s.gpu_temp_c, &s.sm_clock_mhz, &s.util_gpu_pct};
  for (int f = power; f <= util; ++f) {
    if (!fields[f]->known() || !std::isfinite(**fields[f])) continue;
    b.sum[f] += **fields[f];
    ++b.known[f];
  }
  if (s.gpu_temp_c.known()) b.max_temp_c = std::max(b.max_temp_c.value_or(*s.gpu_temp_c), *s.gpu_temp_c);
  Counters& last = last_[s.gpu];
  grow(b.nvlink, last.nvlink, nvlink_total(s));
  grow(b.ecc_corrected, last.ecc_corrected, known(s.ecc_corrected));
  grow(b.ecc_uncorrected, last.ecc_uncorrected, known(s.ecc_uncorrected));
}

void TrendAccumulator::add_rollup(const RollupInput& r) {
  const auto span_ms = static_cast<std::int64_t>(r.span_s * 1000);
  if (r.unix_ms + span_ms <= from_ms_ || r.unix_ms > to_ms_ || r.samples == 0) return;
  Sums& b = buckets_[r.gpu][bucket_of(std::max(r.unix_ms, from_ms_))];
  b.samples += r.samples;
  b.loaded += r.loaded;
  b.from_rollups = true;
  const std::optional<double>* fields[] = {&r.power_w, &r.temp_c, &r.sm_clock_mhz, &r.util_pct};
  for (int f = power; f <= util; ++f) {
    if (!*fields[f]) continue;
    // The rollup's mean stands for its samples (weighting rollups by how much they hold).
    b.sum[f] += **fields[f] * static_cast<double>(r.samples);
    b.known[f] += r.samples;
  }
  if (r.max_temp_c) b.max_temp_c = std::max(b.max_temp_c.value_or(*r.max_temp_c), *r.max_temp_c);
  const auto add = [](std::optional<std::uint64_t>& into, const std::optional<std::uint64_t>& grown) {
    if (grown) into = into.value_or(0) + *grown;
  };
  add(b.nvlink, r.nvlink_errors);
  add(b.ecc_corrected, r.ecc_corrected);
  add(b.ecc_uncorrected, r.ecc_uncorrected);
}

void TrendAccumulator::add_event(std::int64_t unix_ms, const core::TelemetryEvent& event) {
  if (unix_ms < from_ms_ || unix_ms > to_ms_) return;
  events_.push_back({unix_ms, event});
}

TrendHistory TrendAccumulator::finish() const {
  TrendHistory h;
  h.from_unix_ms = from_ms_;
  h.to_unix_ms = to_ms_;
  h.bucket_s = bucket_s_;
  h.interval_s = interval_s_;
  const auto width = static_cast<std::int64_t>(std::llround(bucket_s_ * 1000));
  for (const auto& g : gpus_) {
    GpuTrend t;
    t.gpu = g.index;
    t.name = g.name.value_or("");
    t.uuid = g.uuid.value_or("");
    auto it = buckets_.find(g.index);
    if (it != buckets_.end()) {
      for (const auto& [index, b] : it->second) {
        TrendPoint p;
        p.start_unix_ms = from_ms_ + index * width;
        p.samples = b.samples;
        p.loaded = b.loaded;
        std::optional<double>* means[] = {&p.power_w, &p.temp_c, &p.sm_clock_mhz, &p.util_pct};
        for (int f = power; f <= util; ++f) {
          if (b.known[f] > 0) *means[f] = b.sum[f] / static_cast<double>(b.known[f]);
        }
        p.max_temp_c = b.max_temp_c;
        p.nvlink_errors = b.nvlink;
        p.ecc_corrected = b.ecc_corrected;
        p.ecc_uncorrected = b.ecc_uncorrected;
        p.from_rollups = b.from_rollups;
        t.points.push_back(p);
      }
    }
    h.gpus.push_back(std::move(t));
  }
  h.events = events_;
  std::stable_sort(h.events.begin(), h.events.end(), [](const TrendEvent& a, const TrendEvent& b) { return a.unix_ms < b.unix_ms; });
  return h;
}

}  // namespace gpuvet::analysis
