// The monitor's alert rules over bounded windows (see alert_evaluator.hpp).
#include "monitor/alert_evaluator.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <ctime>
#include <optional>
#include <string>
#include <tuple>

#include "analysis/finding_catalog.hpp"
#include "monitor/peer_standing_watch.hpp"
#include "analysis/finding_codes.hpp"
#include "analysis/xid_catalog.hpp"
#include "monitor/xid_alert_severity.hpp"

namespace gpuvet::monitor {

namespace {

constexpr std::size_t kUtilBuckets = 30;  // the utilization window in 30 buckets, whatever the interval
constexpr double kMinRateSpanS = 60;      // a counter's rate is its growth over at least a minute

constexpr std::pair<std::uint64_t, core::Severity> kThrottleBits[] = {
    {core::clocks_event::sw_thermal_slowdown, core::Severity::warn},
    {core::clocks_event::hw_slowdown, core::Severity::fail},
    {core::clocks_event::hw_thermal_slowdown, core::Severity::fail},
    {core::clocks_event::hw_power_brake, core::Severity::fail},
};

using LinkMember = core::Reading<std::uint64_t> core::NvLinkErrorSample::*;
constexpr std::pair<const char*, LinkMember> kLinkCounters[] = {{"crc_flit", &core::NvLinkErrorSample::crc_flit},
                                                                {"crc_data", &core::NvLinkErrorSample::crc_data},
                                                                {"replay", &core::NvLinkErrorSample::replay},
                                                                {"recovery", &core::NvLinkErrorSample::recovery}};

std::string utc(std::int64_t unix_ms) {
  const std::time_t t = static_cast<std::time_t>(unix_ms / 1000);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S UTC", &tm);
  return buf;
}

std::string number(double v, int decimals) { return fmt::format("{:.{}f}", v, decimals); }

// A cumulative counter watched for growth: an episode starts at the first rise after a quiet
// window and lasts while it keeps rising within the window.
struct CounterWatch {
  std::optional<std::uint64_t> last;
  double last_t = 0;
  double episode_from_t = -1;        // time of the reading before the episode's first rise
  std::int64_t since_ms = 0;         // wall clock of the first rise
  double last_rise_t = -1;
  std::uint64_t growth = 0;

  void add(double t, std::int64_t ms, std::uint64_t value, double window_s) {
    if (last && value > *last) {
      if (last_rise_t < 0 || t - last_rise_t > window_s) {
        episode_from_t = last_t;
        since_ms = ms;
        growth = 0;
      }
      growth += value - *last;
      last_rise_t = t;
    }
    last = value;
    last_t = t;
  }
  [[nodiscard]] bool active(double now, double window_s) const { return last_rise_t >= 0 && now - last_rise_t <= window_s; }
  // The episode's growth over its span, the span taken as at least kMinRateSpanS: one rise seen
  // over a single 1 s interval says how much, not how fast (a counter rising 5/min would read 60/min).
  [[nodiscard]] double per_s(double now) const {
    const double span = std::max(now, last_rise_t) - episode_from_t;
    return static_cast<double>(growth) / std::max(span, kMinRateSpanS);
  }
};

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
  bool lost = false;
  std::int64_t lost_since_ms = 0;
  std::string lost_reason;
  std::map<std::pair<int, std::size_t>, CounterWatch> links;  // (link, counter index)
  CounterWatch ecc_uncorrected, pcie_replays, retired_sbe, retired_dbe, remapped_correctable, remapped_uncorrectable;
  Held remap_pending, retire_pending, remap_failed;
  Held pcie_narrow, pcie_slow;           // width below max; generation below max while busy
  std::string pcie_link;                 // "Gen 4 x8 of Gen 5 x16" at the last sample
  std::map<std::uint64_t, Held> throttle;  // bit -> held
  std::uint64_t reasons = 0;
};

struct XidSeen {
  std::size_t count = 0;
  std::int64_t first_ms = 0, last_ms = 0;
  double last_t = 0;
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
  std::map<std::pair<int, int>, XidSeen> xids;  // (gpu, code)
  double first_t = -1, now_t = 0;
  std::int64_t now_ms = 0;
  double bucket_s = 10;
  std::unique_ptr<BaselineDriftWatch> drift;  // with --baseline only
  std::unique_ptr<PeerStandingWatch> peers;   // hotter_than_peers, slower_than_peers

  void pcie_rule(GpuWatch& g, const core::TelemetrySample& s) const;
  void memory_and_link_alerts(int gpu, const GpuWatch& g, std::vector<MonitorAlert>& out) const;
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
      g.window_util = g.lost ? std::nullopt : window_mean(g);
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
};

AlertEvaluator::AlertEvaluator(std::vector<core::BurninGpu> gpus, AlertThresholds thresholds)
    : state_(std::make_unique<State>()) {
  state_->gpus = std::move(gpus);
  state_->th = thresholds;
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
  const bool answers = s.gpu_temp_c.known() || s.power_w.known() || s.sm_clock_mhz.known() || s.util_gpu_pct.known();
  on_sample(s, answers, answers ? std::string() : s.power_w.reason());
}

void AlertEvaluator::on_sample(const core::TelemetrySample& s, bool answers, const std::string& silence) {
  State& st = *state_;
  if (st.first_t < 0) st.first_t = s.t_s;
  st.now_t = s.t_s;
  st.now_ms = s.unix_ms;
  GpuWatch& g = st.watch[s.gpu];
  const double w = st.th.counter_window_s;
  if (!answers && !g.lost) {
    g.lost = true;
    g.lost_since_ms = s.unix_ms;
    g.lost_reason = silence;
  } else if (answers) {
    g.lost = false;
  }
  if (s.util_gpu_pct.known()) st.add_util(g, s.t_s, *s.util_gpu_pct);
  if (st.drift && answers) st.drift->on_sample(s);
  if (answers) st.peers->on_sample(s);
  if (s.ecc_uncorrected.known()) g.ecc_uncorrected.add(s.t_s, s.unix_ms, *s.ecc_uncorrected, w);
  if (s.pcie_replays.known()) g.pcie_replays.add(s.t_s, s.unix_ms, *s.pcie_replays, w);
  if (s.retired_pages_sbe.known()) g.retired_sbe.add(s.t_s, s.unix_ms, static_cast<std::uint64_t>(*s.retired_pages_sbe), w);
  if (s.retired_pages_dbe.known()) g.retired_dbe.add(s.t_s, s.unix_ms, static_cast<std::uint64_t>(*s.retired_pages_dbe), w);
  if (s.remap_pending.known()) g.remap_pending.update(*s.remap_pending, s.t_s, s.unix_ms);
  if (s.retired_pages_pending.known()) g.retire_pending.update(*s.retired_pages_pending, s.t_s, s.unix_ms);
  if (s.remap_failed.known()) g.remap_failed.update(*s.remap_failed, s.t_s, s.unix_ms);
  if (s.remapped_rows_correctable.known()) g.remapped_correctable.add(s.t_s, s.unix_ms, *s.remapped_rows_correctable, w);
  if (s.remapped_rows_uncorrectable.known()) g.remapped_uncorrectable.add(s.t_s, s.unix_ms, *s.remapped_rows_uncorrectable, w);
  st.pcie_rule(g, s);
  if (s.nvlink.known()) {
    for (const auto& link : *s.nvlink) {
      for (std::size_t c = 0; c < std::size(kLinkCounters); ++c) {
        const auto& r = link.*(kLinkCounters[c].second);
        if (r.known()) g.links[{link.link, c}].add(s.t_s, s.unix_ms, *r, w);
      }
    }
  }
  g.reasons = s.clocks_event_reasons.known() ? *s.clocks_event_reasons : 0;
  for (const auto& [bit, severity] : kThrottleBits) {
    const bool set = (g.reasons & bit) != 0;
    auto it = g.throttle.find(bit);
    if (set && it == g.throttle.end()) it = g.throttle.emplace(bit, Held{}).first;
    if (it != g.throttle.end()) {
      it->second.update(set, s.t_s, s.unix_ms);
      if (!set) g.throttle.erase(it);
    }
  }
}

void AlertEvaluator::on_event(const core::TelemetryEvent& e, std::int64_t unix_ms) {
  State& st = *state_;
  GpuWatch& g = st.watch[e.gpu];
  if (e.kind == core::TelemetryEventKind::gpu_lost && !g.lost) {
    g.lost = true;
    g.lost_since_ms = unix_ms;
    g.lost_reason = e.message;
  }
  if (e.kind != core::TelemetryEventKind::xid) return;
  XidSeen& x = st.xids[{e.gpu, e.code}];
  if (x.count == 0) x.first_ms = unix_ms;
  ++x.count;
  x.last_ms = unix_ms;
  x.last_t = e.t_s;
}

void AlertEvaluator::end_tick(double t_s, std::int64_t unix_ms) {
  State& st = *state_;
  if (st.first_t < 0) st.first_t = t_s;
  st.now_t = t_s;
  st.now_ms = unix_ms;
  st.utilization_rule();
  if (st.drift) st.drift->end_tick(t_s, unix_ms);
  st.peers->end_tick(unix_ms);
  // Xid alerts expire; their entries go with them, so the map stays as small as what fires.
  for (auto it = st.xids.begin(); it != st.xids.end();) {
    it = t_s - it->second.last_t > st.th.xid_hold_s ? st.xids.erase(it) : std::next(it);
  }
}

void AlertEvaluator::State::pcie_rule(GpuWatch& g, const core::TelemetrySample& s) const {
  const bool widths = s.pcie_link_width.known() && s.pcie_link_width_max.known();
  const bool gens = s.pcie_link_gen.known() && s.pcie_link_gen_max.known();
  // Unknown is not healthy either: an unreadable link leaves the held state as it was.
  if (widths) g.pcie_narrow.update(*s.pcie_link_width < *s.pcie_link_width_max, s.t_s, s.unix_ms);
  if (gens) {
    const bool busy = s.util_gpu_pct.known() && *s.util_gpu_pct >= th.busy_util_pct;
    // An idle GPU lowers its generation to save power: only a busy one is judged (and an idle
    // tick neither starts nor ends an episode).
    if (busy) g.pcie_slow.update(*s.pcie_link_gen < *s.pcie_link_gen_max, s.t_s, s.unix_ms);
  }
  if (widths && gens) {
    g.pcie_link = fmt::format("Gen {} x{} of Gen {} x{}", *s.pcie_link_gen, *s.pcie_link_width, *s.pcie_link_gen_max,
                              *s.pcie_link_width_max);
  }
}

void AlertEvaluator::State::memory_and_link_alerts(int gpu, const GpuWatch& g, std::vector<MonitorAlert>& out) const {
  const double w = th.counter_window_s;
  if (g.remap_failed.on()) {
    out.push_back(make_alert(analysis::code::row_remap_failure, core::Severity::fail, {gpu}, g.remap_failed.since_ms,
                             fmt::format("GPU {}: a row remap failed (no spare row left) since {}", gpu,
                                         utc(g.remap_failed.since_ms)),
                             {{"since", utc(g.remap_failed.since_ms)}}));
  }
  const bool unc = g.remapped_uncorrectable.active(now_t, w), cor = g.remapped_correctable.active(now_t, w);
  if (unc || cor) {
    const std::int64_t from = unc ? g.remapped_uncorrectable.since_ms : g.remapped_correctable.since_ms;
    const std::uint64_t unc_new = unc ? g.remapped_uncorrectable.growth : 0, cor_new = cor ? g.remapped_correctable.growth : 0;
    out.push_back(make_alert(analysis::code::remapped_rows_growing, unc ? core::Severity::fail : core::Severity::warn, {gpu}, from,
                             fmt::format("GPU {}: memory rows remapped since {} (+{} for uncorrectable, +{} for correctable errors)",
                                         gpu, utc(from), unc_new, cor_new),
                             {{"uncorrectable_new", std::to_string(unc_new)}, {"correctable_new", std::to_string(cor_new)}}));
  }
  const bool narrow = g.pcie_narrow.on() && now_t - g.pcie_narrow.from_t >= th.pcie_degraded_min_s;
  const bool slow = g.pcie_slow.on() && now_t - g.pcie_slow.from_t >= th.pcie_degraded_min_s;
  if (narrow || slow) {
    const Held& held = narrow ? g.pcie_narrow : g.pcie_slow;
    out.push_back(make_alert(
        analysis::code::pcie_link_degraded, narrow ? core::Severity::fail : core::Severity::warn, {gpu}, held.since_ms,
        fmt::format("GPU {}: PCIe link {} since {}{}", gpu, g.pcie_link.empty() ? std::string("below its maximum") : g.pcie_link,
                    utc(held.since_ms), narrow ? "" : " while busy"),
        {{"link", g.pcie_link}, {"narrow", narrow ? "true" : "false"}, {"held_s", number(now_t - held.from_t, 0)}}));
  }
}

std::vector<MonitorAlert> AlertEvaluator::active() const {
  const State& st = *state_;
  const double now = st.now_t;
  const double w = st.th.counter_window_s;
  std::vector<MonitorAlert> out;
  for (const auto& [gpu, g] : st.watch) {
    if (g.lost) {
      out.push_back(make_alert(analysis::code::gpu_lost, core::Severity::fail, {gpu}, g.lost_since_ms,
                               fmt::format("GPU {} stopped answering since {} ({})", gpu, utc(g.lost_since_ms),
                                           g.lost_reason.empty() ? "no reading" : g.lost_reason),
                               {{"lost_since", utc(g.lost_since_ms)}}));
      continue;  // its other windows hold only what it said before it was lost
    }
    if (g.util_low.on() && g.window_util) {
      const double below = 1 - *g.window_util / g.util_group_mean;
      out.push_back(make_alert(
          analysis::code::utilization_below_peers, core::Severity::warn, {gpu}, g.util_low.since_ms,
          fmt::format("GPU {}: utilization {} % over the last {}, {} % below its group's mean of {} % since {}: it waits "
                      "on its peers (a slower path, its NUMA node or a mixed batch)",
                      gpu, number(*g.window_util, 0), fmt::format("{} s", number(st.th.util_window_s, 0)),
                      number(100 * below, 0), number(g.util_group_mean, 0), utc(g.util_low.since_ms)),
          {{"util_pct", number(*g.window_util, 1)},
           {"group_mean_util_pct", number(g.util_group_mean, 1)},
           {"below_group_mean_share", number(below, 3)},
           {"window_s", number(st.th.util_window_s, 0)}}));
    }
    // NVLink: one alert per GPU naming each growing counter of each link.
    std::string parts;
    std::vector<std::pair<std::string, std::string>> evidence;
    std::int64_t since = 0;
    bool fail = false;
    for (const auto& [key, c] : g.links) {
      if (!c.active(now, w)) continue;
      const auto [link, index] = key;
      const std::string counter = kLinkCounters[index].first;
      const bool crc = counter.rfind("crc", 0) == 0;
      const double rate = c.per_s(now);
      if (crc ? rate >= st.th.nvlink_crc_per_s : c.growth > 1) fail = true;
      since = since == 0 ? c.since_ms : std::min(since, c.since_ms);
      parts += fmt::format("{}link {} {} +{} ({}/min)", parts.empty() ? "" : "; ", link, counter, c.growth, number(rate * 60, 1));
      evidence.emplace_back(fmt::format("link{}_{}_new", link, counter), std::to_string(c.growth));
      evidence.emplace_back(fmt::format("link{}_{}_per_min", link, counter), number(rate * 60, 2));
    }
    if (!parts.empty()) {
      evidence.emplace_back("since", utc(since));
      out.push_back(make_alert(analysis::code::nvlink_errors_growing, fail ? core::Severity::fail : core::Severity::warn, {gpu}, since,
                               fmt::format("GPU {}: NVLink error counters growing since {}: {}", gpu, utc(since), parts),
                               std::move(evidence)));
    }
    if (g.ecc_uncorrected.active(now, w)) {
      out.push_back(make_alert(analysis::code::ecc_errors_new, core::Severity::fail, {gpu}, g.ecc_uncorrected.since_ms,
                               fmt::format("GPU {}: {} new uncorrectable ECC error(s) since {}", gpu, g.ecc_uncorrected.growth,
                                           utc(g.ecc_uncorrected.since_ms)),
                               {{"uncorrected_new", std::to_string(g.ecc_uncorrected.growth)}}));
    }
    st.memory_and_link_alerts(gpu, g, out);
    if (st.drift) st.drift->alerts_for(gpu, out);
    st.peers->alerts_for(gpu, out);
    if (g.remap_pending.on()) {
      out.push_back(make_alert(analysis::code::row_remap_pending, core::Severity::fail, {gpu}, g.remap_pending.since_ms,
                               fmt::format("GPU {} has a row remap pending (a GPU reset applies it) since {}", gpu,
                                           utc(g.remap_pending.since_ms)),
                               {{"since", utc(g.remap_pending.since_ms)}}));
    }
    const bool dbe = g.retired_dbe.active(now, w), sbe = g.retired_sbe.active(now, w);
    if (g.retire_pending.on() || dbe || sbe) {
      const std::int64_t from = g.retire_pending.on() ? g.retire_pending.since_ms : dbe ? g.retired_dbe.since_ms : g.retired_sbe.since_ms;
      out.push_back(make_alert(
          analysis::code::retired_pages, g.retire_pending.on() || dbe ? core::Severity::fail : core::Severity::warn, {gpu}, from,
          fmt::format("GPU {}: memory pages retired since {} (+{} single-bit, +{} double-bit{})", gpu, utc(from),
                      sbe ? g.retired_sbe.growth : 0, dbe ? g.retired_dbe.growth : 0,
                      g.retire_pending.on() ? ", a retirement pending a reboot" : ""),
          {{"sbe_new", std::to_string(sbe ? g.retired_sbe.growth : 0)},
           {"dbe_new", std::to_string(dbe ? g.retired_dbe.growth : 0)},
           {"pending", g.retire_pending.on() ? "true" : "false"}}));
    }
    if (g.pcie_replays.active(now, w) && g.pcie_replays.per_s(now) * 60 > st.th.pcie_replays_per_min) {
      const double per_min = g.pcie_replays.per_s(now) * 60;
      out.push_back(make_alert(analysis::code::pcie_replays, core::Severity::warn, {gpu}, g.pcie_replays.since_ms,
                               fmt::format("GPU {}: PCIe replays growing since {}: +{}, {} per minute (above DCGM's {})",
                                           gpu, utc(g.pcie_replays.since_ms), g.pcie_replays.growth, number(per_min, 1),
                                           number(st.th.pcie_replays_per_min, 0)),
                               {{"replays_new", std::to_string(g.pcie_replays.growth)}, {"per_minute", number(per_min, 2)}}));
    }
    for (const auto& [bit, held] : g.throttle) {
      if (!held.on() || now - held.from_t < st.th.throttle_min_s) continue;
      const auto severity = std::find_if(std::begin(kThrottleBits), std::end(kThrottleBits),
                                         [bit = bit](const auto& b) { return b.first == bit; })->second;
      const std::string reason = core::clocks_event_name(bit);
      out.push_back(make_alert(analysis::code::throttle_reasons, severity, {gpu}, held.since_ms,
                               fmt::format("GPU {}: clocks held back by {} since {} ({} s)", gpu, reason, utc(held.since_ms),
                                           number(now - held.from_t, 0)),
                               {{"reason", reason}, {"held_s", number(now - held.from_t, 0)}}));
    }
  }
  for (const auto& [key, x] : st.xids) {
    const auto [gpu, code] = key;
    const auto* info = analysis::find_xid(code);
    const std::string meaning = info ? std::string(info->meaning) : "not in gpuvet's copy of NVIDIA's Xid catalogue";
    const std::string action = info ? std::string(analysis::describe(info->action)) : "see NVIDIA's Xid catalogue";
    auto alert = make_alert(analysis::code::xid_event, xid_alert_severity(code), {gpu}, x.first_ms,
                            fmt::format("GPU {} reported Xid {} ({}) {} time(s), last at {}; NVIDIA's action: {}", gpu, code,
                                        meaning, x.count, utc(x.last_ms), action),
                            {{"xid", std::to_string(code)}, {"count", std::to_string(x.count)}, {"last", utc(x.last_ms)}});
    alert.next_step = action;
    out.push_back(std::move(alert));
  }
  std::stable_sort(out.begin(), out.end(), [](const MonitorAlert& a, const MonitorAlert& b) {
    return std::tie(a.code, a.gpus) < std::tie(b.code, b.gpus);
  });
  return out;
}

std::size_t AlertEvaluator::retained_objects() const {
  const State& st = *state_;
  std::size_t n = st.xids.size() + (st.drift ? st.drift->retained_objects() : 0) + st.peers->retained_objects();
  for (const auto& [gpu, g] : st.watch) n += g.util.size() + g.links.size() + g.throttle.size() + 4;
  return n;
}

}  // namespace gpuvet::monitor
