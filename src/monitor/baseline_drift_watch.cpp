// baseline_drift in the daemon over a ring of minute buckets (see baseline_drift_watch.hpp).
#include "monitor/baseline_drift_watch.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "analysis/baseline_drift.hpp"
#include "analysis/finding_catalog.hpp"
#include "core/finding_codes.hpp"

namespace gpuvet::monitor {

namespace {

constexpr double kBucketS = static_cast<double>(kBaselineDriftBucket.count());

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

std::string span(double seconds) {
  return seconds >= 3600 && std::fmod(seconds, 3600) == 0 ? fmt::format("{:g} h", seconds / 3600)
                                                          : fmt::format("{:g} min", seconds / 60);
}

}  // namespace

BaselineDriftLimits::BaselineDriftLimits()
    : busy_util_pct(analysis::kBaselineBusyUtilPct), hotter_c(analysis::kBaselineHotterC), clock_share(analysis::kBaselineClockShare) {}

BaselineDriftWatch::BaselineDriftWatch(core::TrendBaseline baseline, BaselineDriftLimits limits)
    : baseline_(std::move(baseline)), limits_(limits) {
  const auto buckets = static_cast<std::size_t>(std::max(1.0, std::ceil(limits_.window_s / kBucketS)));
  for (const auto& b : baseline_.gpus) {
    Gpu& g = gpus_[b.gpu];
    g.baseline = b;
    g.ring.resize(buckets);
  }
}

void BaselineDriftWatch::on_sample(const core::TelemetrySample& s) {
  const auto it = gpus_.find(s.gpu);
  if (it == gpus_.end()) return;
  const auto minute = static_cast<std::int64_t>(std::floor(s.t_s / kBucketS));
  Bucket& b = it->second.ring[static_cast<std::size_t>(minute % static_cast<std::int64_t>(it->second.ring.size()))];
  if (b.minute != minute) b = Bucket{minute};
  if (s.util_gpu_pct.known()) b.util_sum += *s.util_gpu_pct, ++b.util_n;
  if (s.gpu_temp_c.known()) b.temp_sum += *s.gpu_temp_c, ++b.temp_n;
  if (s.sm_clock_mhz.known()) b.clock_sum += *s.sm_clock_mhz, ++b.clock_n;
}

void BaselineDriftWatch::end_tick(double t_s, std::int64_t unix_ms) {
  for (auto& [gpu, g] : gpus_) judge(g, t_s, unix_ms);
}

void BaselineDriftWatch::judge(Gpu& g, double t_s, std::int64_t unix_ms) const {
  const auto now_minute = static_cast<std::int64_t>(std::floor(t_s / kBucketS));
  const auto oldest = now_minute - static_cast<std::int64_t>(g.ring.size()) + 1;
  // Under load in a minute: its mean utilization at least the limit (as trend reads its buckets).
  std::vector<double> temps, clocks;
  double busy_s = 0;
  for (const auto& b : g.ring) {
    if (b.minute < oldest || b.minute > now_minute || b.util_n == 0) continue;
    if (b.util_sum / static_cast<double>(b.util_n) < limits_.busy_util_pct) continue;
    busy_s += kBucketS;
    if (b.temp_n > 0) temps.push_back(b.temp_sum / static_cast<double>(b.temp_n));
    if (b.clock_n > 0) clocks.push_back(b.clock_sum / static_cast<double>(b.clock_n));
  }
  const bool enough = busy_s >= limits_.min_busy_s;
  const auto update = [&](Drift& d, core::Severity severity, double now, double then) {
    if (severity == core::Severity::info) {
      d = Drift{};
      return;
    }
    if (d.severity == core::Severity::info) d.since_ms = unix_ms;
    d.severity = severity;
    d.now = now;
    d.then = then;
    d.busy_s = busy_s;
  };
  if (enough && g.baseline.temp_c && !temps.empty()) {
    const double now = median(temps);
    update(g.hotter, analysis::baseline_hotter_severity(now - *g.baseline.temp_c, limits_.hotter_c), now, *g.baseline.temp_c);
  } else {
    g.hotter = Drift{};  // not enough load in the window to judge: nothing fires
  }
  if (enough && g.baseline.sm_clock_mhz && *g.baseline.sm_clock_mhz > 0 && !clocks.empty()) {
    const double now = median(clocks);
    const double lower = 1 - now / *g.baseline.sm_clock_mhz;
    update(g.slower, analysis::baseline_slower_severity(lower, limits_.clock_share), now, *g.baseline.sm_clock_mhz);
  } else {
    g.slower = Drift{};
  }
}

void BaselineDriftWatch::alerts_for(int gpu, std::vector<MonitorAlert>& out) const {
  const auto it = gpus_.find(gpu);
  if (it == gpus_.end()) return;
  const Gpu& g = it->second;
  const std::string when = baseline_.finished_utc.empty() ? std::string() : " (" + baseline_.finished_utc + ")";
  const auto alert = [&](const Drift& d, std::string message, std::string key, std::string reading, std::string rule) {
    MonitorAlert a;
    a.code = std::string(core::code::baseline_drift);
    a.severity = d.severity;
    a.gpus = {gpu};
    a.since_unix_ms = d.since_ms;
    a.message = std::move(message);
    if (const auto* info = analysis::find_finding_info(a.code)) a.next_step = info->next_step;
    a.evidence = {{std::move(key), std::move(reading)},
                  {"baseline", baseline_.label + when + ", steady state of the burn-in under full GEMM load"},
                  {"now", fmt::format("{} under load (utilization at least {:g} %) in the last {}; median of its minute means",
                                      span(d.busy_s), limits_.busy_util_pct, span(limits_.window_s))},
                  {"rule", std::move(rule)}};
    out.push_back(std::move(a));
  };
  if (g.hotter.severity != core::Severity::info) {
    const Drift& d = g.hotter;
    alert(d,
          fmt::format("GPU {} passed its acceptance burn-in at {:.0f} °C; under load it now runs at {:.0f} °C (+{:.1f} °C over the last {})",
                      gpu, d.then, d.now, d.now - d.then, span(limits_.window_s)),
          "temperature", fmt::format("{:.1f} °C now, {:.1f} °C at acceptance", d.now, d.then),
          fmt::format("hotter by {:g} °C (warn), {:g} °C (fail)", limits_.hotter_c,
                      analysis::kBaselineHotterFailFactor * limits_.hotter_c));
  }
  if (g.slower.severity != core::Severity::info) {
    const Drift& d = g.slower;
    alert(d,
          fmt::format("GPU {} passed its acceptance burn-in at {:.0f} MHz; under load it now runs at {:.0f} MHz ({:.1f} % lower over the last {})",
                      gpu, d.then, d.now, (1 - d.now / d.then) * 100, span(limits_.window_s)),
          "sm_clock", fmt::format("{:.0f} MHz now, {:.0f} MHz at acceptance", d.now, d.then),
          fmt::format("lower by {:g} % (warn), {:g} % (fail)", limits_.clock_share * 100,
                      limits_.clock_share * analysis::kBaselineClockFailFactor * 100));
  }
}

std::size_t BaselineDriftWatch::retained_objects() const {
  std::size_t n = 0;
  for (const auto& [gpu, g] : gpus_) n += g.ring.size() + 2;
  return n;
}

}  // namespace gpuvet::monitor
