// Loads the acceptance bundle given to `gpuvet trend --baseline` into the trend judge's baseline.
#pragma once

#include <string>

#include "accept/accept_model.hpp"
#include "analysis/trend_judge.hpp"
#include "core/error.hpp"
#include "core/telemetry.hpp"

namespace gpuvet::cli {

// Each GPU's steady state under full load from an accept report: the burn-in judge's medians its
// burn-in stage recorded ("steady_state"); from a bundle written before that field, the median of
// the second half of the burn-in's per-minute charts. Errors (bad_input) name `label`/report.json:
// no burn-in stage, or no steady state and no charts.
core::Result<analysis::TrendBaseline> baseline_from_report(const accept::AcceptReport& report, const std::string& label);

// `bundle_dir`/report.json through bundle::read_bundle_report (as gpuvet compare): only once the
// bundle matches its MANIFEST and, with a `public_key` (--key), its signature verifies with it;
// schema and numbers checked. `seal`, when given, gets what was not checked without a key
// ("unsigned: anyone can regenerate this MANIFEST"), or "" when the key verified it. Errors (bad_input) name the directory or
// file and what was expected.
core::Result<accept::AcceptReport> read_baseline_bundle(const std::string& bundle_dir, const std::string& public_key = {},
                                                        std::string* seal = nullptr);

// The bundle's baseline numbered as the history (`history_gpus`: every GPU of the history, present
// or not). Matched by UUID where the bundle's identity and the history both know it (the driver
// renumbers the GPUs after one falls off the bus, so index 2 in the bundle may be the history's
// GPU 3); by index where either side has no UUID. A bundle GPU whose card is not in the history (a
// card replaced since the acceptance) is left out, so is not compared. Refused (bad_input) when no
// UUID of the bundle is in the history: another machine's acceptance.
core::Result<analysis::TrendBaseline> baseline_for_history(const accept::AcceptReport& report, const std::string& bundle_dir,
                                                           const std::vector<core::GpuTrend>& history_gpus);

// read_baseline_bundle, then baseline_for_history.
core::Result<analysis::TrendBaseline> load_trend_baseline(const std::string& bundle_dir,
                                                          const std::vector<core::GpuTrend>& history_gpus,
                                                          const std::string& public_key = {}, std::string* seal = nullptr);

// The GPUs of the bundle's identity (index, name, UUID, bus id; limits not recorded there), for
// numbering a new history as the acceptance did. Empty when the report has no identity.
std::vector<core::BurninGpu> bundle_gpus(const accept::AcceptReport& report);

}  // namespace gpuvet::cli
