// A history database (the monitor daemon's or a burn-in's) judged over a period in one pass, the
// one way `gpuvet trend` and `gpuvet report --db` on a monitor's history read it: the burn-in judge
// over the period's raw samples (the health judge inside it), the health judge over the hours only
// rollups hold, and the trend buckets the peer rules read (analysis::judge_trend).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/error.hpp"
#include "core/telemetry.hpp"
#include "core/trend.hpp"

namespace gpuvet::cli {

// The longest period a report covers: the monitor keeps hourly rollups about a year.
inline constexpr double kMaxHistoryPeriodS = 400.0 * 24 * 3600;

struct HistoryJudgement {
  core::BurninRecord record;          // header, GPUs, events (no samples)
  core::BurninAssessment assessment;  // the burn-in judge's, its findings merged with the rollup hours'
  core::TrendHistory history;         // the period's buckets, for the trend judge and the charts
  std::vector<std::string> notes;
  // What the health findings were judged from: raw samples, hourly rollups (start, end).
  std::optional<std::pair<std::int64_t, std::int64_t>> raw_span, rollup_span;
};

// The last `period_s` of `db`, up to its newest record. Errors: the reader's (bad input naming the
// file), or a history with no sample and no rollup yet.
core::Result<HistoryJudgement> judge_history(const std::string& db, double period_s);

}  // namespace gpuvet::cli
