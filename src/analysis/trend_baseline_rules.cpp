// baseline_drift: each GPU under load in the period against what it ran at in the acceptance
// burn-in it passed (the bundle given as --baseline): hotter by degrees, or at a lower SM clock,
// by the median of the period's busy buckets or, when worse, of its latest day's (a drift at the end).
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "analysis/baseline_drift.hpp"
#include "analysis/finding_codes.hpp"
#include "analysis/rule_support.hpp"
#include "analysis/trend_rules.hpp"

namespace gpuvet::analysis::trend {

namespace {

// Under load in this bucket: utilization at least the threshold, or (burn-in history, no
// utilization) most samples under the GEMM load.
bool busy(const TrendPoint& p, const TrendThresholds& th) {
  if (p.util_pct) return *p.util_pct >= th.baseline_busy_util_pct;
  return p.samples > 0 && static_cast<double>(p.loaded) >= th.loaded_share * static_cast<double>(p.samples);
}

constexpr std::int64_t kLatestDayMs = 24 * 3600 * 1000LL;

core::Severity level(double drift, double warn, double fail) {
  if (drift >= fail) return core::Severity::fail;
  return drift >= warn ? core::Severity::warn : core::Severity::info;
}

}  // namespace

}  // namespace gpuvet::analysis::trend

namespace gpuvet::analysis {

core::Severity baseline_hotter_severity(double hotter_c, double warn_c) {
  return trend::level(hotter_c, warn_c, kBaselineHotterFailFactor * warn_c);
}
core::Severity baseline_slower_severity(double lower_share, double warn_share) {
  return trend::level(lower_share, warn_share, kBaselineClockFailFactor * warn_share);
}

}  // namespace gpuvet::analysis

namespace gpuvet::analysis::trend {

void baseline_rules(const TrendHistory& h, const std::optional<TrendBaseline>& baseline, const TrendThresholds& th,
                    TrendAssessment& out) {
  for (auto& standing : out.gpus) {
    const auto it = std::find_if(h.gpus.begin(), h.gpus.end(), [&](const GpuTrend& g) { return g.gpu == standing.gpu; });
    std::vector<double> temps, clocks, day_temps, day_clocks;  // the period's busy buckets, the latest day's
    double day_busy_s = 0;
    const std::int64_t day_from = h.to_unix_ms - kLatestDayMs;
    for (const auto& p : it->points) {
      if (!busy(p, th)) continue;
      const double sampled_s = static_cast<double>(p.samples) * h.interval_s;
      standing.busy_s += sampled_s;
      if (p.temp_c) temps.push_back(*p.temp_c);
      if (p.sm_clock_mhz) clocks.push_back(*p.sm_clock_mhz);
      if (p.start_unix_ms < day_from) continue;
      day_busy_s += sampled_s;
      if (p.temp_c) day_temps.push_back(*p.temp_c);
      if (p.sm_clock_mhz) day_clocks.push_back(*p.sm_clock_mhz);
    }
    // The latest day counts when it is not the whole period and had the load the rule needs.
    const bool day_counts = h.to_unix_ms - h.from_unix_ms > kLatestDayMs && day_busy_s >= th.baseline_min_busy_s;
    const double day_temp = day_counts ? median_of(day_temps).value_or(NAN) : NAN;  // NAN: the latest day does not count
    const double day_clock = day_counts ? median_of(day_clocks).value_or(NAN) : NAN;
    standing.busy_temp_c = median_of(temps);
    standing.busy_sm_clock_mhz = median_of(clocks);
    if (!baseline) continue;
    const int gpu = standing.gpu;
    const auto b = std::find_if(baseline->gpus.begin(), baseline->gpus.end(), [&](const TrendBaselineGpu& g) { return g.gpu == gpu; });
    if (b == baseline->gpus.end()) {
      out.unverified.push_back(fmt::format("baseline: GPU {} has no burn-in results in {}", gpu, baseline->label));
      continue;
    }
    standing.baseline = *b;
    if (standing.busy_s < th.baseline_min_busy_s) {
      out.unverified.push_back(fmt::format("baseline: GPU {} ran under load (utilization at least {:g} %) for {} of the period, "
                                           "less than the {} needed to compare it with its acceptance burn-in",
                                           gpu, th.baseline_busy_util_pct, hours(standing.busy_s), hours(th.baseline_min_busy_s)));
      continue;
    }
    const std::string when = baseline->finished_utc.empty() ? std::string() : " (" + baseline->finished_utc + ")";
    const std::string load = fmt::format("{} under load (utilization at least {:g} %) in the period; medians of its {} buckets, "
                                         "over the period and over its latest day",
                                         hours(standing.busy_s), th.baseline_busy_util_pct, hours(h.bucket_s));
    if (b->temp_c && standing.busy_temp_c) {
      const double drift = *standing.busy_temp_c - *b->temp_c;
      const double day_drift = std::isfinite(day_temp) ? day_temp - *b->temp_c : drift;
      const auto severity = baseline_hotter_severity(std::max(drift, day_drift), th.baseline_temp_c);
      if (severity != core::Severity::info) {
        const std::string day = std::isfinite(day_temp) ? fmt::format(", {:.0f} °C over the latest day (+{:.1f} °C)", day_temp, day_drift) : "";
        auto f = make_finding(code::baseline_drift, severity, {gpu},
                              fmt::format("GPU {} passed its acceptance burn-in at {:.0f} °C; under load its median is {:.0f} °C over the "
                                          "period (+{:.1f} °C){}",
                                          gpu, *b->temp_c, *standing.busy_temp_c, drift, day));
        f.evidence = {{"temperature", fmt::format("{:.1f} °C median of the period{}, {:.1f} °C at acceptance", *standing.busy_temp_c,
                                                  std::isfinite(day_temp) ? fmt::format(", {:.1f} °C of the latest day", day_temp) : "", *b->temp_c)},
                      {"baseline", baseline->label + when + ", steady state of the burn-in under full GEMM load"},
                      {"now", load},
                      {"rule", fmt::format("hotter by {:g} °C (warn), {:g} °C (fail)", th.baseline_temp_c, 2 * th.baseline_temp_c)}};
        out.findings.push_back(std::move(f));
      }
    }
    if (b->sm_clock_mhz && standing.busy_sm_clock_mhz && *b->sm_clock_mhz > 0) {
      const double drift = 1 - *standing.busy_sm_clock_mhz / *b->sm_clock_mhz;
      const double day_drift = std::isfinite(day_clock) ? 1 - day_clock / *b->sm_clock_mhz : drift;
      const auto severity = baseline_slower_severity(std::max(drift, day_drift), th.baseline_clock_share);
      if (severity != core::Severity::info) {
        const std::string day = std::isfinite(day_clock) ? fmt::format(", {:.0f} MHz over the latest day ({:.1f} % lower)", day_clock, day_drift * 100) : "";
        auto f = make_finding(code::baseline_drift, severity, {gpu},
                              fmt::format("GPU {} passed its acceptance burn-in at {:.0f} MHz; under load its median is {:.0f} MHz over the "
                                          "period ({:.1f} % lower){}",
                                          gpu, *b->sm_clock_mhz, *standing.busy_sm_clock_mhz, drift * 100, day));
        f.evidence = {{"sm_clock", fmt::format("{:.0f} MHz median of the period{}, {:.0f} MHz at acceptance", *standing.busy_sm_clock_mhz,
                                               std::isfinite(day_clock) ? fmt::format(", {:.0f} MHz of the latest day", day_clock) : "", *b->sm_clock_mhz)},
                      {"baseline", baseline->label + when + ", steady state of the burn-in under full GEMM load"},
                      {"now", load},
                      {"rule", fmt::format("lower by {:g} % (warn), {:g} % (fail)", th.baseline_clock_share * 100,
                                           th.baseline_clock_share * 300)}};
        out.findings.push_back(std::move(f));
      }
    }
  }
}

}  // namespace gpuvet::analysis::trend
