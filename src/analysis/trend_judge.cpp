// The trend judge: standings per GPU, then the peer and baseline rules, and the period's health
// findings taken from the burn-in judge.
#include "analysis/trend_judge.hpp"

#include <algorithm>
#include <string_view>

#include <fmt/format.h>

#include "analysis/finding_codes.hpp"
#include "analysis/health/health_rules.hpp"
#include "analysis/trend_rules.hpp"
#include "core/statistics.hpp"

namespace gpuvet::analysis {

namespace trend {

std::optional<double> median_of(std::vector<double> values) {
  return core::median(std::move(values));
}

std::string hours(double seconds) {
  if (seconds < 3600) return fmt::format("{:.0f} min", seconds / 60);
  return fmt::format("{:.1f} h", seconds / 3600);
}

}  // namespace trend

TrendAssessment judge_trend(const TrendHistory& history, const std::optional<TrendBaseline>& baseline,
                            const TrendThresholds& thresholds) {
  TrendAssessment out;
  for (const auto& g : history.gpus) {
    TrendStanding standing;
    standing.gpu = g.gpu;
    out.gpus.push_back(standing);
  }
  trend::peer_rules(history, thresholds, out);
  trend::utilization_rule(history, thresholds, out);
  trend::baseline_rules(history, baseline, thresholds, out);
  return out;
}

std::vector<core::Finding> period_health_findings(const core::BurninAssessment& assessment) {
  std::vector<core::Finding> out;
  for (const auto& f : assessment.findings) {
    if (health::is_health_code(f.code) || f.code == code::compute_miscompare) out.push_back(f);
  }
  return out;
}

}  // namespace gpuvet::analysis
