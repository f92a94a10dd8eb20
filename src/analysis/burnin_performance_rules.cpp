// Burn-in rules that compare GPUs under the same load: the slow card (straggler_gpu), the card
// whose clocks fall out of step first (clock_desync), the hot card (thermal_outlier), the card
// that never reaches its power limit (power_not_reached), and time spent in throttle reasons.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "analysis/burnin_series.hpp"

namespace gpuvet::analysis::burnin {

namespace {

// Each GPU's steady-state median of `member`.
std::map<int, double> medians(const Context& ctx, core::Reading<double> core::TelemetrySample::*member) {
  std::map<int, double> out;
  for (const auto& [gpu, s] : ctx.series) {
    if (auto m = median(steady_values(ctx, s, member))) out[gpu] = *m;
  }
  return out;
}

// The median of the other GPUs' values (the best of them when only one other GPU exists).
std::optional<double> peers_of(const std::map<int, double>& values, int gpu) {
  std::vector<double> others;
  for (const auto& [g, v] : values) {
    if (g != gpu) others.push_back(v);
  }
  if (others.empty()) return std::nullopt;
  if (others.size() == 1) return others.front();
  return median(others);
}

}  // namespace

void straggler_rule(const Context& ctx, std::vector<core::Finding>& out) {
  const auto tflops = medians(ctx, &core::TelemetrySample::tflops);
  if (tflops.size() < 2) return;
  for (const auto& [gpu, value] : tflops) {
    const auto peers = peers_of(tflops, gpu);
    if (!peers || *peers <= 0) continue;
    const double threshold = *peers * (1 - ctx.thresholds.straggler_tolerance);
    if (value >= threshold) continue;
    double first = -1;
    double last = -1;
    for (const auto* s : ctx.series.at(gpu).samples) {
      if (s->t_s < ctx.warmup_end_s || !s->tflops.known() || *s->tflops >= threshold) continue;
      if (first < 0) first = s->t_s;
      last = s->t_s;
    }
    out.push_back(finding(
        "straggler_gpu", core::Severity::fail, {gpu},
        fmt::format("GPU {} sustains {} TFLOP/s under the burn-in GEMM, {} % of its peers' median {} TFLOP/s",
                    gpu, format_number(value, 1), format_number(100 * value / *peers, 0), format_number(*peers, 1)),
        {{"median_tflops", format_number(value, 1)},
         {"peer_median_tflops", format_number(*peers, 1)},
         {"tolerance", format_number(100 * ctx.thresholds.straggler_tolerance, 0) + " %"},
         {"window", window(first, last)}}));
  }
}

void clock_desync_rule(const Context& ctx, std::vector<core::Finding>& out) {
  if (ctx.series.size() < 2) return;
  // Per tick: each loaded GPU's SM clock against the median of the loaded GPUs at that tick.
  std::map<double, std::vector<std::pair<int, double>>> ticks;
  for (const auto& [gpu, s] : ctx.series) {
    for (const auto* sample : s.samples) {
      if (sample->tflops.known() && sample->sm_clock_mhz.known()) ticks[sample->t_s].emplace_back(gpu, *sample->sm_clock_mhz);
    }
  }
  struct Episode {
    double first = -1, last = -1, longest = 0, run_start = -1, total = 0, min_clock = 1e18, peer_clock = 0;
    double prev = -1;
  };
  std::map<int, Episode> episodes;
  for (const auto& [t, clocks] : ticks) {
    if (clocks.size() < 2) continue;
    std::vector<double> values;
    for (const auto& c : clocks) values.push_back(c.second);
    const double mid = clocks.size() == 2 ? std::max(values[0], values[1]) : *median(values);
    for (const auto& [gpu, clock] : clocks) {
      auto& e = episodes[gpu];
      if (clock >= mid * (1 - ctx.thresholds.clock_desync_share)) {
        e.run_start = -1;
        continue;
      }
      if (e.run_start < 0 || e.prev < 0 || t - e.prev > 1.5 * ctx.interval_s) e.run_start = t;
      e.prev = t;
      e.total += ctx.interval_s;
      const double length = t - e.run_start + ctx.interval_s;
      if (length >= ctx.thresholds.clock_desync_min_s) {
        if (e.first < 0) {
          e.first = e.run_start;
          e.peer_clock = mid;
        }
        e.last = t;
        e.longest = std::max(e.longest, length);
      }
      e.min_clock = std::min(e.min_clock, clock);
    }
  }
  std::vector<std::pair<double, int>> order;
  for (const auto& [gpu, e] : episodes) {
    if (e.first >= 0) order.emplace_back(e.first, gpu);
  }
  std::sort(order.begin(), order.end());
  for (std::size_t i = 0; i < order.size(); ++i) {
    const int gpu = order[i].second;
    const auto& e = episodes.at(gpu);
    out.push_back(finding(
        "clock_desync", core::Severity::warn, {gpu},
        fmt::format("GPU {} {}dropped its SM clock below its peers at {}, down to {} MHz (peers {} MHz), for {} "
                    "in all",
                    gpu, i == 0 ? "was the first to throttle: it " : "", hms(e.first), format_number(e.min_clock, 0),
                    format_number(e.peer_clock, 0), hms(e.total)),
        {{"first_drop", hms(e.first)},
         {"window", window(e.first, e.last)},
         {"time_below", hms(e.total)},
         {"min_sm_clock_mhz", format_number(e.min_clock, 0)},
         {"peer_sm_clock_mhz", format_number(e.peer_clock, 0)},
         {"order", fmt::format("{} of {}", i + 1, order.size())}}));
  }
}

void thermal_rule(const Context& ctx, std::vector<core::Finding>& out) {
  const auto temps = medians(ctx, &core::TelemetrySample::gpu_temp_c);
  if (temps.size() < 2) return;
  for (const auto& [gpu, value] : temps) {
    const auto peers = peers_of(temps, gpu);
    if (!peers || value < *peers + ctx.thresholds.thermal_outlier_c) continue;
    double max_temp = value;
    double first = -1;
    for (const auto* s : ctx.series.at(gpu).samples) {
      if (!s->gpu_temp_c.known()) continue;
      max_temp = std::max(max_temp, *s->gpu_temp_c);
      if (first < 0 && s->tflops.known() && *s->gpu_temp_c >= *peers + ctx.thresholds.thermal_outlier_c) first = s->t_s;
    }
    out.push_back(finding(
        "thermal_outlier", core::Severity::warn, {gpu},
        fmt::format("GPU {} runs at {} °C under load, {} °C hotter than its peers ({} °C) at the same load", gpu,
                    format_number(value, 0), format_number(value - *peers, 0), format_number(*peers, 0)),
        {{"median_temp_c", format_number(value, 0)},
         {"peer_median_temp_c", format_number(*peers, 0)},
         {"max_temp_c", format_number(max_temp, 0)},
         {"first_above", first >= 0 ? hms(first) : std::string("n/a")}}));
  }
}

void power_rule(const Context& ctx, std::vector<core::Finding>& out) {
  for (const auto& gpu_info : ctx.record.gpus) {
    auto it = ctx.series.find(gpu_info.index);
    if (it == ctx.series.end() || !gpu_info.power_limit_w.known()) continue;
    // Thermal slowdown lowers power on purpose: that is thermal_outlier's and throttle_reasons' story.
    std::vector<double> power;
    constexpr std::uint64_t thermal = core::clocks_event::sw_thermal_slowdown | core::clocks_event::hw_thermal_slowdown |
                                      core::clocks_event::hw_slowdown | core::clocks_event::hw_power_brake;
    std::size_t loaded = 0;
    double first = -1, last = -1;
    for (const auto* s : it->second.samples) {
      if (s->t_s < ctx.warmup_end_s || !s->tflops.known()) continue;
      ++loaded;
      if (first < 0) first = s->t_s;
      last = s->t_s;
      if (s->clocks_event_reasons.known() && (*s->clocks_event_reasons & thermal)) continue;
      if (s->power_w.known()) power.push_back(*s->power_w);
    }
    if (power.size() * 2 < loaded || power.empty()) continue;
    const double limit = *gpu_info.power_limit_w;
    const double value = *median(power);
    if (value >= limit * ctx.thresholds.power_reached_share) continue;
    out.push_back(finding(
        "power_not_reached", core::Severity::warn, {gpu_info.index},
        fmt::format("GPU {} draws {} W under full GEMM load, {} % of its {} W power limit", gpu_info.index,
                    format_number(value, 0), format_number(100 * value / limit, 0), format_number(limit, 0)),
        {{"median_power_w", format_number(value, 0)},
         {"power_limit_w", format_number(limit, 0)},
         {"threshold", format_number(100 * ctx.thresholds.power_reached_share, 0) + " %"},
         {"window", window(first, last)}}));
  }
}

void throttle_rule(const Context& ctx, std::vector<core::Finding>& out) {
  static constexpr std::uint64_t kWatched[] = {core::clocks_event::hw_slowdown, core::clocks_event::sw_thermal_slowdown,
                                               core::clocks_event::hw_thermal_slowdown,
                                               core::clocks_event::hw_power_brake};
  for (const auto& [gpu, s] : ctx.series) {
    std::map<std::uint64_t, std::pair<double, double>> time;  // bit -> (seconds, first seen)
    for (const auto* sample : s.samples) {
      if (!sample->clocks_event_reasons.known()) continue;
      for (auto bit : kWatched) {
        if ((*sample->clocks_event_reasons & bit) == 0) continue;
        auto [it, inserted] = time.try_emplace(bit, 0.0, sample->t_s);
        it->second.first += ctx.interval_s;
      }
    }
    if (time.empty()) continue;
    const double span = s.samples.back()->t_s - s.samples.front()->t_s + ctx.interval_s;
    bool hardware = false;
    std::string parts;
    std::vector<std::pair<std::string, std::string>> evidence;
    for (const auto& [bit, entry] : time) {
      if (bit != core::clocks_event::sw_thermal_slowdown) hardware = true;
      const std::string name = core::clocks_event_name(bit);
      parts += fmt::format("{}{} {} ({} % of the run, from {})", parts.empty() ? "" : "; ", name, hms(entry.first),
                           format_number(100 * entry.first / span, 1), hms(entry.second));
      evidence.emplace_back(name + "_s", format_number(entry.first, 0));
      evidence.emplace_back(name + "_first", hms(entry.second));
    }
    out.push_back(finding("throttle_reasons", hardware ? core::Severity::fail : core::Severity::warn, {gpu},
                          fmt::format("GPU {} was held back under load: {}", gpu, parts), std::move(evidence)));
  }
}

}  // namespace gpuvet::analysis::burnin
