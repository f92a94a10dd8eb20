// The hours of a history that only its hourly rollups hold (raw samples pruned by the retention),
// as the judges read them (cli/history_judgement: each stored GPU-hour less the part its raw
// samples cover, into analysis::RollupHealth and the trend buckets).
#pragma once

#include <cstdint>

#include "analysis/trend_history.hpp"
#include "telemetry/hour_rollup.hpp"

namespace gpuvet::cli {

// One stored hourly rollup as the trend judge reads it, its hour starting at `hour_unix_ms`.
analysis::RollupInput rollup_input(const telemetry::HourRollup& r, std::int64_t hour_unix_ms);

}  // namespace gpuvet::cli
