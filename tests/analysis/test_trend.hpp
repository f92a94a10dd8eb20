// Hand-built trend histories for the trend judge's tests: a busy group of GPUs sampled for hours,
// with one GPU made hotter, slower or otherwise different, so every trend finding code is emitted
// from known input.
#pragma once

#include <functional>
#include <optional>
#include <vector>

#include "analysis/trend_history.hpp"
#include "analysis/trend_judge.hpp"

namespace gpuvet::analysis::testing {

// `gpus` GPUs at 95 % utilization, 66 °C, 1780 MHz, 690 W, every `interval_s` for `duration_s`,
// starting 2026-12-01 00:00 UTC; `edit` changes a sample before it is added. Bucketed as
// `gpuvet trend` would for the duration.
core::TrendHistory busy_history(int gpus, double duration_s, double interval_s,
                                const std::function<void(core::TelemetrySample&)>& edit = nullptr);

// A baseline of `gpus` GPUs at 66 °C and 1780 MHz (the acceptance burn-in).
core::TrendBaseline flat_baseline(int gpus);

// Findings of histories planted with each trend finding code (for the catalogue's test).
std::vector<core::Finding> trend_gallery_findings();

}  // namespace gpuvet::analysis::testing
