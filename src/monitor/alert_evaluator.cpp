// The monitor's alert rules over bounded windows (see alert_evaluator.hpp).
#include "monitor/alert_evaluator.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <string>
#include <tuple>

#include "analysis/finding_catalog.hpp"
#include "analysis/finding_codes.hpp"
#include "analysis/health/health_judge.hpp"
#include "monitor/peer_standing_watch.hpp"

namespace gpuvet::monitor {

namespace {

constexpr std::size_t kUtilBuckets = 30;  // the utilization window in 30 buckets, whatever the interval

std::string number(double v, int decimals) { return fmt::format("{:.{}f}", v, decimals); }

struct UtilBucket {
  std::int64_t index = -1;
  double sum = 0;
  std::size_t n = 0;
};

// How long a condition has held: the first tick it held (wall clock), cleared when it stops.
struct Held {
  double from_t = -1;
  std::int64_t since_ms = 0;
  void update(bool holds, double t, std::int64_t ms) {
    if (!holds) {
      from_t = -1;
    } else if (from_t < 0) {
      from_t = t;
      since_ms = ms;
    }
  }
  [[nodiscard]] bool on() const { return from_t >= 0; }
};

struct GpuWatch {
  std::array<UtilBucket, kUtilBuckets> util{};
  std::optional<double> window_util;     // mean over the window at the last end_tick
  Held util_low;
  double util_group_mean = 0;
  bool answers = true;                   // at its last sample
};

MonitorAlert make_alert(std::string_view code, core::Severity severity, std::vector<int> gpus, std::int64_t since_ms,
                        std::string message, std::vector<std::pair<std::string, std::string>> evidence) {
  MonitorAlert a;
  a.code = std::string(code);
  a.severity = severity;
  a.gpus = std::move(gpus);
  a.since_unix_ms = since_ms;
  a.message = std::move(message);
  if (const auto* info = analysis::find_finding_info(code)) a.next_step = info->next_step;
  a.evidence = std::move(evidence);
  return a;
}

}  // namespace

struct AlertEvaluator::State {
  std::vector<core::BurninGpu> gpus;
  AlertThresholds th;
  std::map<int, GpuWatch> watch;
  analysis::health::HealthJudge health;
  double first_t = -1, now_t = 0;
  std::int64_t now_ms = 0;
  double bucket_s = 10;
  std::unique_ptr<BaselineDriftWatch> drift;  // with --baseline only
  std::unique_ptr<PeerStandingWatch> peers;   // hotter_than_peers, slower_than_peers

  // Run time t_s as wall clock: the daemon's t_s and unix_ms advance together.
  [[nodiscard]] std::int64_t unix_ms_at(double t_s) const {
    return now_ms + static_cast<std::int64_t>(std::llround((t_s - now_t) * 1000));
  }
  void add_util(GpuWatch& g, double t, double value) {
    const auto index = static_cast<std::int64_t>(std::floor(t / bucket_s));
    UtilBucket& b = g.util[static_cast<std::size_t>(index % static_cast<std::int64_t>(kUtilBuckets))];
    if (b.index != index) b = UtilBucket{index, 0, 0};
    b.sum += value;
    ++b.n;
  }
  std::optional<double> window_mean(const GpuWatch& g) const {
    const auto newest = static_cast<std::int64_t>(std::floor(now_t / bucket_s));
    double sum = 0;
    std::size_t n = 0;
    for (const auto& b : g.util) {
      if (b.index >= 0 && b.index > newest - static_cast<std::int64_t>(kUtilBuckets) && b.index <= newest) {
        sum += b.sum;
        n += b.n;
      }
    }
    if (n == 0) return std::nullopt;
    return sum / static_cast<double>(n);
  }
  void utilization_rule() {
    const bool window_full = first_t >= 0 && now_t - first_t >= th.util_window_s;
    double sum = 0;
    std::size_t n = 0;
    for (auto& [gpu, g] : watch) {
      g.window_util = g.answers ? window_mean(g) : std::nullopt;
      if (g.window_util) {
        sum += *g.window_util;
        ++n;
      }
    }
    const double group = n > 0 ? sum / static_cast<double>(n) : 0;
    const bool busy = window_full && n >= 2 && analysis::utilization_group_busy(group, th.busy_util_pct);
    for (auto& [gpu, g] : watch) {
      const bool low = busy && g.window_util && analysis::utilization_below_peers(*g.window_util, group, th.util_below_share);
      g.util_low.update(low, now_t, now_ms);
      g.util_group_mean = group;
    }
  }
  void utilization_alert(int gpu, const GpuWatch& g, std::vector<MonitorAlert>& out) const {
    if (!g.util_low.on() || !g.window_util || !g.answers) return;
    const double below = 1 - *g.window_util / g.util_group_mean;
    out.push_back(make_alert(
        analysis::code::utilization_below_peers, core::Severity::warn, {gpu}, g.util_low.since_ms,
        fmt::format("GPU {}: utilization {} % over the last {} s, {} % below its group's mean of {} % since {}: it waits "
                    "on its peers (a slower path, its NUMA node or a mixed batch)",
                    gpu, number(*g.window_util, 0), number(th.util_window_s, 0), number(100 * below, 0),
                    number(g.util_group_mean, 0), health_words().at(g.util_low.from_t)),
        {{"util_pct", number(*g.window_util, 1)},
         {"group_mean_util_pct", number(g.util_group_mean, 1)},
         {"below_group_mean_share", number(below, 3)},
         {"window_s", number(th.util_window_s, 0)}}));
  }
  [[nodiscard]] analysis::health::HealthWords health_words() const {
    analysis::health::HealthWords words;
    words.started_unix_ms = unix_ms_at(0);
    words.wall_clock = true;
    words.during = "in the last window";
    return words;
  }
};

AlertEvaluator::AlertEvaluator(std::vector<core::BurninGpu> gpus, AlertThresholds thresholds)
    : state_(std::make_unique<State>()) {
  state_->gpus = std::move(gpus);
  state_->th = thresholds;
  state_->health = analysis::health::HealthJudge(thresholds.health, thresholds.interval_s);
  state_->bucket_s = thresholds.util_window_s / static_cast<double>(kUtilBuckets);
  std::vector<int> indices;
  for (const auto& g : state_->gpus) {
    state_->watch[g.index];
    indices.push_back(g.index);
  }
  state_->peers = std::make_unique<PeerStandingWatch>(indices, thresholds.interval_s);
}

AlertEvaluator::~AlertEvaluator() = default;

void AlertEvaluator::set_baseline(core::TrendBaseline baseline, BaselineDriftLimits limits) {
  state_->drift = std::make_unique<BaselineDriftWatch>(std::move(baseline), limits);
}

void AlertEvaluator::on_sample(const core::TelemetrySample& s) {
  const bool answers = analysis::health::answers(s);
  on_sample(s, answers, answers ? std::string() : s.power_w.reason());
}

void AlertEvaluator::on_sample(const core::TelemetrySample& s, bool answers, const std::string& silence) {
  State& st = *state_;
  if (st.first_t < 0) st.first_t = s.t_s;
  st.now_t = s.t_s;
  st.now_ms = s.unix_ms;
  GpuWatch& g = st.watch[s.gpu];
  g.answers = answers;
  if (s.util_gpu_pct.known()) st.add_util(g, s.t_s, *s.util_gpu_pct);
  if (st.drift && answers) st.drift->on_sample(s);
  if (answers) st.peers->on_sample(s);
  st.health.on_sample(s, answers, silence);
}

void AlertEvaluator::on_event(const core::TelemetryEvent& e, std::int64_t unix_ms) {
  State& st = *state_;
  core::TelemetryEvent at = e;
  // The event's moment on the daemon's run-time axis (its wall clock is what the daemon knew).
  at.t_s = st.now_t + static_cast<double>(unix_ms - st.now_ms) / 1000.0;
  if (e.kind == core::TelemetryEventKind::gpu_lost) st.watch[e.gpu].answers = false;
  st.health.on_event(at);
}

void AlertEvaluator::end_tick(double t_s, std::int64_t unix_ms) {
  State& st = *state_;
  if (st.first_t < 0) st.first_t = t_s;
  st.now_t = t_s;
  st.now_ms = unix_ms;
  st.utilization_rule();
  if (st.drift) st.drift->end_tick(t_s, unix_ms);
  st.peers->end_tick(unix_ms);
}

std::vector<MonitorAlert> AlertEvaluator::active() const {
  const State& st = *state_;
  analysis::health::HealthView view;
  view.live = true;
  view.now_s = st.now_t;
  view.limits = st.th.health;
  view.words = st.health_words();
  view.gpus = &st.gpus;
  std::vector<MonitorAlert> out;
  std::vector<int> lost;
  for (auto& h : st.health.judge(view)) {
    if (h.finding.code == analysis::code::gpu_lost) lost.insert(lost.end(), h.finding.gpus.begin(), h.finding.gpus.end());
    MonitorAlert a = make_alert(h.finding.code, h.finding.severity, h.finding.gpus, st.unix_ms_at(h.since_s),
                                std::move(h.finding.message), std::move(h.finding.evidence));
    if (!h.finding.next_step.empty()) a.next_step = h.finding.next_step;
    out.push_back(std::move(a));
  }
  for (const auto& [gpu, g] : st.watch) {
    // A lost GPU's other windows hold only what it said before it was lost.
    if (std::find(lost.begin(), lost.end(), gpu) != lost.end()) continue;
    st.utilization_alert(gpu, g, out);
    if (st.drift) st.drift->alerts_for(gpu, out);
    st.peers->alerts_for(gpu, out);
  }
  std::stable_sort(out.begin(), out.end(), [](const MonitorAlert& a, const MonitorAlert& b) {
    return std::tie(a.code, a.gpus) < std::tie(b.code, b.gpus);
  });
  return out;
}

std::size_t AlertEvaluator::retained_objects() const {
  const State& st = *state_;
  std::size_t n = st.health.retained_objects() + (st.drift ? st.drift->retained_objects() : 0) + st.peers->retained_objects();
  for (const auto& [gpu, g] : st.watch) n += g.util.size() + 2;
  return n;
}

}  // namespace gpuvet::monitor
