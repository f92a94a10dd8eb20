// The trend judge's peer rule over the daemon's recent buckets (see peer_standing_watch.hpp).
#include "monitor/peer_standing_watch.hpp"

#include <cmath>

#include "analysis/trend_judge.hpp"
#include "core/finding_codes.hpp"

namespace gpuvet::monitor {
namespace {

constexpr std::int64_t kBucketMs = std::chrono::duration_cast<std::chrono::milliseconds>(kPeerStandingBucket).count();
constexpr auto kBuckets = static_cast<std::size_t>(kPeerStandingWindow / kPeerStandingBucket);

std::optional<double> mean(double sum, std::size_t n) {
  if (n == 0) return std::nullopt;
  return sum / static_cast<double>(n);
}

}  // namespace

PeerStandingWatch::PeerStandingWatch(const std::vector<int>& gpus, double interval_s) : interval_s_(interval_s) {
  for (int g : gpus) rings_[g].resize(kBuckets + 1);  // the window and the bucket filling now
}

void PeerStandingWatch::on_sample(const core::TelemetrySample& s) {
  const auto ring = rings_.find(s.gpu);
  if (ring == rings_.end()) return;
  const std::int64_t index = s.unix_ms / kBucketMs;
  Bucket& b = ring->second[static_cast<std::size_t>(index % static_cast<std::int64_t>(ring->second.size()))];
  if (b.index != index) b = Bucket{index};
  ++b.samples;
  const auto add = [](const core::Reading<double>& r, double& sum, std::size_t& n) {
    if (r.known() && std::isfinite(*r)) {
      sum += *r;
      ++n;
    }
  };
  add(s.gpu_temp_c, b.temp_sum, b.temp_n);
  add(s.sm_clock_mhz, b.clock_sum, b.clock_n);
  add(s.util_gpu_pct, b.util_sum, b.util_n);
  add(s.power_w, b.power_sum, b.power_n);
}

void PeerStandingWatch::end_tick(std::int64_t unix_ms) {
  const std::int64_t filling = unix_ms / kBucketMs;
  if (filling - 1 <= judged_through_) return;
  judge(filling);
  judged_through_ = filling - 1;
}

void PeerStandingWatch::judge(std::int64_t closed_before) {
  const std::int64_t first = closed_before - static_cast<std::int64_t>(kBuckets);
  core::TrendHistory history;
  history.from_unix_ms = first * kBucketMs;
  history.to_unix_ms = closed_before * kBucketMs;
  history.bucket_s = static_cast<double>(kBucketMs) / 1000.0;
  history.interval_s = interval_s_;
  for (const auto& [gpu, ring] : rings_) {
    core::GpuTrend trend;
    trend.gpu = gpu;
    for (std::int64_t index = first; index < closed_before; ++index) {
      const Bucket& b = ring[static_cast<std::size_t>(index % static_cast<std::int64_t>(ring.size()))];
      if (b.index != index || b.samples == 0) continue;
      core::TrendPoint p;
      p.start_unix_ms = index * kBucketMs;
      p.samples = b.samples;
      p.temp_c = mean(b.temp_sum, b.temp_n);
      p.sm_clock_mhz = mean(b.clock_sum, b.clock_n);
      p.util_pct = mean(b.util_sum, b.util_n);
      p.power_w = mean(b.power_sum, b.power_n);
      trend.points.push_back(p);
    }
    history.gpus.push_back(std::move(trend));
  }
  const auto assessment = analysis::judge_trend(history, std::nullopt);
  std::map<std::pair<std::string, int>, MonitorAlert> now;
  for (const auto& f : assessment.findings) {
    if (f.code != core::code::hotter_than_peers && f.code != core::code::slower_than_peers) continue;
    if (f.gpus.size() != 1) continue;
    const std::pair<std::string, int> key{f.code, f.gpus.front()};
    MonitorAlert a;
    a.code = f.code;
    a.severity = f.severity;
    a.gpus = f.gpus;
    const auto was = firing_.find(key);
    a.since_unix_ms = was != firing_.end() ? was->second.since_unix_ms : closed_before * kBucketMs;
    a.message = f.message + " (judged over the last " + std::to_string(kPeerStandingWindow.count() / 3600) + " h)";
    a.next_step = f.next_step;
    a.evidence = f.evidence;
    now.emplace(key, std::move(a));
  }
  firing_ = std::move(now);
}

void PeerStandingWatch::alerts_for(int gpu, std::vector<MonitorAlert>& out) const {
  for (const auto& [key, alert] : firing_) {
    if (key.second == gpu) out.push_back(alert);
  }
}

std::size_t PeerStandingWatch::retained_objects() const {
  std::size_t n = firing_.size();
  for (const auto& [gpu, ring] : rings_) n += ring.size();
  return n;
}

}  // namespace gpuvet::monitor
