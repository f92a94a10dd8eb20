// Hand-built burn-in records for the burn-in judge's tests: a healthy run of N GPUs, and one
// variant per planted problem, so every burn-in finding code is emitted from known input.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "core/finding.hpp"
#include "core/telemetry.hpp"

namespace gpuvet::analysis::testing {

// `gpus` H100-like GPUs under GEMM load for `duration_s`, one sample every `interval_s`: 790
// TFLOP/s, 66 °C, 1782 MHz, 690 W of a 700 W limit, all counters flat. Small deterministic
// per-GPU differences; no finding.
core::BurninRecord healthy_burnin(int gpus = 8, double duration_s = 3600, double interval_s = 10);

// Applies `edit` to every sample of `gpu` from time `from_s` on.
void edit_samples(core::BurninRecord& record, int gpu, double from_s,
                  const std::function<void(core::TelemetrySample&)>& edit);

struct BurninGalleryEntry {
  std::string name;
  std::string code;         // the finding it must produce
  int gpu = 0;              // on this GPU
  core::BurninRecord record;
};
// One record per burn-in finding code.
std::vector<BurninGalleryEntry> burnin_gallery();
// Findings of every gallery record.
std::vector<core::Finding> burnin_gallery_findings();

}  // namespace gpuvet::analysis::testing
