// Per-GPU series and shared statistics for the burn-in rules.
#include "analysis/burnin_series.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "analysis/rule_support.hpp"

namespace gpuvet::analysis::burnin {

Context make_context(const core::BurninRecord& record, const BurninThresholds& thresholds) {
  Context ctx{record, thresholds, {}, 0, record.run.interval_s > 0 ? record.run.interval_s : 1.0};
  double last = 0;
  for (const auto& s : record.samples) {
    auto& series = ctx.series[s.gpu];
    series.gpu = s.gpu;
    series.samples.push_back(&s);
    last = std::max(last, s.t_s);
  }
  for (auto& [gpu, series] : ctx.series) {
    std::stable_sort(series.samples.begin(), series.samples.end(),
                     [](const auto* a, const auto* b) { return a->t_s < b->t_s; });
  }
  const double planned = std::max(record.run.planned_duration_s, last);
  ctx.warmup_end_s = std::min(thresholds.warmup_s, 0.1 * planned);
  return ctx;
}

std::optional<double> median(std::vector<double> values) {
  if (values.empty()) return std::nullopt;
  const auto mid = values.size() / 2;
  std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(mid), values.end());
  const double upper = values[mid];
  if (values.size() % 2 == 1) return upper;
  const double lower = *std::max_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(mid));
  return (lower + upper) / 2;
}

std::vector<double> steady_values(const Context& ctx, const Series& s, core::Reading<double> core::TelemetrySample::*member) {
  std::vector<double> out;
  for (const auto* sample : s.samples) {
    if (sample->t_s < ctx.warmup_end_s || !sample->tflops.known()) continue;
    const auto& r = sample->*member;
    if (r.known()) out.push_back(r.value());
  }
  return out;
}

std::string hms(double seconds) {
  const auto total = static_cast<long long>(std::llround(std::max(0.0, seconds)));
  return fmt::format("{:02}:{:02}:{:02}", total / 3600, (total / 60) % 60, total % 60);
}

std::string window(double from_s, double to_s) { return hms(from_s) + "-" + hms(to_s); }

std::string format_number(double value, int decimals) { return fmt::format("{:.{}f}", value, decimals); }

core::Finding finding(std::string_view code, core::Severity severity, std::vector<int> gpus, std::string message,
                      std::vector<std::pair<std::string, std::string>> evidence) {
  core::Finding f = make_finding(code, severity, std::move(gpus), std::move(message));
  f.evidence = std::move(evidence);
  return f;
}

}  // namespace gpuvet::analysis::burnin
