// The hours of a history that only its hourly rollups hold (raw samples pruned by the retention),
// read the one way `gpuvet trend` and `gpuvet report --db` both judge them: each stored
// GPU-hour less the part its raw samples cover (analysis::RawHourTally), into the rollup health
// rules (analysis::RollupHealth).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "analysis/trend_history.hpp"
#include "core/finding.hpp"
#include "core/error.hpp"
#include "telemetry/hour_rollup.hpp"

namespace gpuvet::cli {

// One stored hourly rollup as the trend judge reads it, its hour starting at `hour_unix_ms`.
analysis::RollupInput rollup_input(const telemetry::HourRollup& r, std::int64_t hour_unix_ms);

// What the rollup-only hours of a history say, from `from_unix_ms` on.
struct RollupHours {
  std::vector<core::Finding> findings;                              // RollupHealth's
  std::optional<std::pair<std::int64_t, std::int64_t>> span;        // wall-clock span judged
  double gpu_s = 0;                                                 // GPU-seconds they hold
};

// Reads `db` once more (samples only to know which hours they cover). Errors as read_history's.
core::Result<RollupHours> judge_rollup_hours(const std::string& db, std::int64_t from_unix_ms = 0);

}  // namespace gpuvet::cli
