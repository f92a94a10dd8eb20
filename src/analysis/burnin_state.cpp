// Running statistics of the streaming burn-in judge, and the helpers its rules share.
#include "analysis/burnin_state.hpp"

#include <ctime>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "analysis/rule_support.hpp"

namespace gpuvet::analysis::burnin {

void Histogram::add(double value, double t_s) {
  auto [it, inserted] = bins_.try_emplace(value);
  Bin& b = it->second;
  if (inserted) {
    b.first_s = b.last_s = t_s;
  } else {
    b.first_s = std::min(b.first_s, t_s);
    b.last_s = std::max(b.last_s, t_s);
  }
  ++b.count;
  ++count_;
}

// The same median as sorting every value: the middle one, or the mean of the two middle ones.
std::optional<double> Histogram::median() const {
  if (count_ == 0) return std::nullopt;
  const std::size_t mid = count_ / 2;  // index of the upper middle value
  std::size_t seen = 0;
  std::optional<double> lower;
  for (const auto& [value, bin] : bins_) {
    if (count_ % 2 == 0 && !lower && seen + bin.count >= mid) lower = value;  // holds index mid - 1
    if (seen + bin.count > mid) return count_ % 2 == 1 ? value : (*lower + value) / 2;
    seen += bin.count;
  }
  return std::nullopt;
}

std::pair<double, double> Histogram::times_below(double limit) const {
  double first = -1, last = -1;
  for (auto it = bins_.begin(); it != bins_.end() && it->first < limit; ++it) {
    if (first < 0 || it->second.first_s < first) first = it->second.first_s;
    last = std::max(last, it->second.last_s);
  }
  return {first, last};
}

double Histogram::first_at_or_above(double limit) const {
  double first = -1;
  for (auto it = bins_.lower_bound(limit); it != bins_.end(); ++it) {
    if (first < 0 || it->second.first_s < first) first = it->second.first_s;
  }
  return first;
}

void desync_tick(std::map<int, GpuState>& series, double t_s, std::vector<std::pair<int, double>>& clocks,
                 const BurninThresholds& thresholds, double interval_s) {
  if (clocks.size() < 2) return;
  std::stable_sort(clocks.begin(), clocks.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<double> values;
  values.reserve(clocks.size());
  for (const auto& c : clocks) values.push_back(c.second);
  const double mid = clocks.size() == 2 ? std::max(values[0], values[1]) : *median(values);
  for (const auto& [gpu, clock] : clocks) {
    Episode& e = series[gpu].desync;
    if (clock >= mid * (1 - thresholds.clock_desync_share)) {
      e.run_start = -1;
      continue;
    }
    if (e.run_start < 0 || e.prev < 0 || t_s - e.prev > 1.5 * interval_s) e.run_start = t_s;
    e.prev = t_s;
    e.total += interval_s;
    const double length = t_s - e.run_start + interval_s;
    if (length >= thresholds.clock_desync_min_s) {
      if (e.first < 0) {
        e.first = e.run_start;
        e.peer_clock = mid;
      }
      e.last = t_s;
      e.longest = std::max(e.longest, length);
    }
    e.min_clock = std::min(e.min_clock, clock);
  }
}

std::string hms(double seconds) {
  const auto total = static_cast<long long>(std::llround(std::max(0.0, seconds)));
  return fmt::format("{:02}:{:02}:{:02}", total / 3600, (total / 60) % 60, total % 60);
}

std::string window(double from_s, double to_s) { return hms(from_s) + "-" + hms(to_s); }

std::string at(const Context& ctx, double t_s) {
  if (!ctx.wall_clock) return hms(t_s);
  const auto unix_ms = ctx.run.started_unix_ms + static_cast<std::int64_t>(std::llround(t_s * 1000));
  const auto seconds = static_cast<std::time_t>(unix_ms / 1000);
  std::tm tm{};
  ::gmtime_r(&seconds, &tm);
  return fmt::format("{:04}-{:02}-{:02} {:02}:{:02}:{:02} UTC", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min,
                     tm.tm_sec);
}

std::string span(const Context& ctx, double from_s, double to_s) {
  return ctx.wall_clock ? at(ctx, from_s) + " to " + at(ctx, to_s) : window(from_s, to_s);
}

std::string_view during(const Context& ctx) { return ctx.wall_clock ? "in the period" : "during the burn-in"; }

std::string format_number(double value, int decimals) { return fmt::format("{:.{}f}", value, decimals); }

core::Finding finding(std::string_view code, core::Severity severity, std::vector<int> gpus, std::string message,
                      std::vector<std::pair<std::string, std::string>> evidence) {
  core::Finding f = make_finding(code, severity, std::move(gpus), std::move(message));
  f.evidence = std::move(evidence);
  return f;
}

}  // namespace gpuvet::analysis::burnin
