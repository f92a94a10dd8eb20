// Burn-in rules that compare GPUs under the same load: the slow card (straggler_gpu), the card
// whose clocks fall out of step first (clock_desync), the hot card (thermal_outlier), the card
// that never reaches its power limit (power_not_reached). Time held back by throttle reasons is
// the health judge's throttle_reasons (analysis/health).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "analysis/burnin_state.hpp"
#include "analysis/finding_codes.hpp"

namespace gpuvet::analysis::burnin {

namespace {

// Each GPU's steady-state median of one distribution.
std::map<int, double> medians(const Context& ctx, const Histogram GpuState::*member) {
  std::map<int, double> out;
  for (const auto& [gpu, s] : ctx.series) {
    if (auto m = (s.*member).median()) out[gpu] = *m;
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
  const auto tflops = medians(ctx, &GpuState::tflops);
  if (tflops.size() < 2) return;
  for (const auto& [gpu, value] : tflops) {
    const auto peers = peers_of(tflops, gpu);
    if (!peers || *peers <= 0) continue;
    const double threshold = *peers * (1 - ctx.thresholds.straggler_tolerance);
    if (value >= threshold) continue;
    const auto [first, last] = ctx.series.at(gpu).tflops.times_below(threshold);
    out.push_back(finding(
        code::straggler_gpu, core::Severity::fail, {gpu},
        fmt::format("GPU {} sustains {} TFLOP/s under the burn-in GEMM, {} % of its peers' median {} TFLOP/s",
                    gpu, format_number(value, 1), format_number(100 * value / *peers, 0), format_number(*peers, 1)),
        {{"median_tflops", format_number(value, 1)},
         {"peer_median_tflops", format_number(*peers, 1)},
         {"tolerance", format_number(100 * ctx.thresholds.straggler_tolerance, 0) + " %"},
         {"window", span(ctx, first, last)}}));
  }
}

void clock_desync_rule(const Context& ctx, std::vector<core::Finding>& out) {
  if (ctx.series.size() < 2) return;
  std::vector<std::pair<double, int>> order;
  for (const auto& [gpu, s] : ctx.series) {
    if (s.desync.first >= 0) order.emplace_back(s.desync.first, gpu);
  }
  std::sort(order.begin(), order.end());
  for (std::size_t i = 0; i < order.size(); ++i) {
    const int gpu = order[i].second;
    const auto& e = ctx.series.at(gpu).desync;
    out.push_back(finding(
        code::clock_desync, core::Severity::warn, {gpu},
        fmt::format("GPU {} {}dropped its SM clock below its peers at {}, down to {} MHz (peers {} MHz), for {} "
                    "in all",
                    gpu, i == 0 ? "was the first to throttle: it " : "", at(ctx, e.first), format_number(e.min_clock, 0),
                    format_number(e.peer_clock, 0), hms(e.total)),
        {{"first_drop", at(ctx, e.first)},
         {"window", span(ctx, e.first, e.last)},
         {"time_below", hms(e.total)},
         {"min_sm_clock_mhz", format_number(e.min_clock, 0)},
         {"peer_sm_clock_mhz", format_number(e.peer_clock, 0)},
         {"order", fmt::format("{} of {}", i + 1, order.size())}}));
  }
}

void thermal_rule(const Context& ctx, std::vector<core::Finding>& out) {
  const auto temps = medians(ctx, &GpuState::temp_c);
  if (temps.size() < 2) return;
  for (const auto& [gpu, value] : temps) {
    const auto peers = peers_of(temps, gpu);
    if (!peers || value < *peers + ctx.thresholds.thermal_outlier_c) continue;
    const GpuState& g = ctx.series.at(gpu);
    const double max_temp = std::max(value, g.max_temp_c.value_or(value));
    const double first = g.loaded_temp_c.first_at_or_above(*peers + ctx.thresholds.thermal_outlier_c);
    out.push_back(finding(
        code::thermal_outlier, core::Severity::warn, {gpu},
        fmt::format("GPU {} runs at {} °C under load, {} °C hotter than its peers ({} °C) at the same load", gpu,
                    format_number(value, 0), format_number(value - *peers, 0), format_number(*peers, 0)),
        {{"median_temp_c", format_number(value, 0)},
         {"peer_median_temp_c", format_number(*peers, 0)},
         {"max_temp_c", format_number(max_temp, 0)},
         {"first_above", first >= 0 ? at(ctx, first) : std::string("n/a")}}));
  }
}

void power_rule(const Context& ctx, std::vector<core::Finding>& out) {
  for (const auto& gpu_info : ctx.gpus) {
    auto it = ctx.series.find(gpu_info.index);
    if (it == ctx.series.end() || !gpu_info.power_limit_w.known()) continue;
    // Thermal slowdown lowers power on purpose: that is thermal_outlier's and throttle_reasons' story.
    const GpuState& g = it->second;
    const std::size_t kept = g.power_unthrottled_w.size();
    if (kept * 2 < g.steady_loaded || kept == 0) continue;
    const double limit = *gpu_info.power_limit_w;
    const double value = *g.power_unthrottled_w.median();
    if (value >= limit * ctx.thresholds.power_reached_share) continue;
    out.push_back(finding(
        code::power_not_reached, core::Severity::warn, {gpu_info.index},
        fmt::format("GPU {} draws {} W under full GEMM load, {} % of its {} W power limit", gpu_info.index,
                    format_number(value, 0), format_number(100 * value / limit, 0), format_number(limit, 0)),
        {{"median_power_w", format_number(value, 0)},
         {"power_limit_w", format_number(limit, 0)},
         {"threshold", format_number(100 * ctx.thresholds.power_reached_share, 0) + " %"},
         {"window", span(ctx, g.loaded_first_s, g.loaded_last_s)}}));
  }
}

}  // namespace gpuvet::analysis::burnin
