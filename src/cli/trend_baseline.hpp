// Loads the acceptance bundle given to `gpuvet trend --baseline` into the trend judge's baseline.
#pragma once

#include <string>

#include "accept/accept_model.hpp"
#include "analysis/trend_judge.hpp"
#include "core/error.hpp"

namespace gpuvet::cli {

// Each GPU's steady state (median of the second half of the burn-in's per-minute charts) from an
// accept report. Errors (bad_input) name `label`/report.json: no burn-in stage, or no charts.
core::Result<analysis::TrendBaseline> baseline_from_report(const accept::AcceptReport& report, const std::string& label);

// `bundle_dir`/report.json, only once the bundle matches its MANIFEST (as gpuvet compare), checked
// against its schema, and of the GPUs in the history (`history_gpus`): a bundle whose identity
// names another UUID for a GPU index is another machine. Errors (bad_input) name the directory or
// file and what was expected.
core::Result<analysis::TrendBaseline> load_trend_baseline(const std::string& bundle_dir,
                                                          const std::vector<core::GpuTrend>& history_gpus);

}  // namespace gpuvet::cli
