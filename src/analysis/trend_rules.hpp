// Internal to the trend judge: the rule families and their shared helpers.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "analysis/trend_judge.hpp"

namespace gpuvet::analysis::trend {

std::optional<double> median_of(std::vector<double> values);
// "46.0 h", "30 min".
std::string hours(double seconds);

// hotter_than_peers, slower_than_peers (trend_peer_rules.cpp); fills the standings' peer fields.
void peer_rules(const TrendHistory& history, const TrendThresholds& thresholds, TrendAssessment& out);
// utilization_below_peers (trend_utilization_rule.cpp).
void utilization_rule(const TrendHistory& history, const TrendThresholds& thresholds, TrendAssessment& out);
// baseline_drift (trend_baseline_rules.cpp); fills the standings' busy and baseline fields.
void baseline_rules(const TrendHistory& history, const std::optional<TrendBaseline>& baseline, const TrendThresholds& thresholds,
                    TrendAssessment& out);

}  // namespace gpuvet::analysis::trend
