// Synthetic input for the alert evaluator tests (alert_evaluator_test, alert_memory_link_test,
// baseline_drift_test): GPUs 0..n-1, a sample of a healthy GPU at a given load, and a feeder that
// runs 1 s ticks. Header only; each test edits the healthy sample into the fault it checks.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "core/telemetry.hpp"
#include "monitor/alert_evaluator.hpp"

namespace gpuvet::monitor::testing {

inline constexpr std::int64_t kEpochMs = 1'767'225'600'000;  // 2026-01-01 00:00:00 UTC: run time 0

// The wall clock at run time t_s.
inline std::int64_t unix_ms_at(double t_s) { return kEpochMs + static_cast<std::int64_t>(t_s * 1000); }

// GPUs 0..n-1, nothing else known about them.
inline std::vector<core::BurninGpu> gpus(int n) {
  std::vector<core::BurninGpu> out(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) out[static_cast<std::size_t>(i)].index = i;
  return out;
}

// A GPU that raises no alert at `util_pct`: under the power cap only, counters at zero, no NVLink
// errors, its PCIe link at its maximum while busy (an idle GPU drops to Gen 1, as real ones do).
inline core::TelemetrySample healthy_sample(int gpu, double t_s, double util_pct) {
  core::TelemetrySample s;
  s.gpu = gpu;
  s.t_s = t_s;
  s.unix_ms = unix_ms_at(t_s);
  s.util_gpu_pct = util_pct;
  s.gpu_temp_c = 65.0;
  s.power_w = 690.0;
  s.sm_clock_mhz = 1780.0;
  s.clocks_event_reasons = core::clocks_event::sw_power_cap;
  s.ecc_uncorrected = std::uint64_t{0};
  s.pcie_replays = std::uint64_t{0};
  s.nvlink = std::vector<core::NvLinkErrorSample>{};
  s.pcie_link_gen = util_pct >= 50 ? 5 : 1;
  s.pcie_link_width = 16;
  s.pcie_link_gen_max = 5;
  s.pcie_link_width_max = 16;
  s.remapped_rows_correctable = std::uint64_t{0};
  s.remapped_rows_uncorrectable = std::uint64_t{0};
  s.remap_failed = false;
  return s;
}

// Feeds GPUs 0..n-1 from run time t0 to t1 in 1 s ticks, each a healthy sample at `util_pct`
// that `edit` may change before it is fed.
template <class Edit>
void feed_ticks(AlertEvaluator& ev, int n, double t0, double t1, double util_pct, Edit&& edit) {
  for (double t = t0; t <= t1; t += 1) {
    for (int g = 0; g < n; ++g) {
      core::TelemetrySample s = healthy_sample(g, t, util_pct);
      edit(s);
      ev.on_sample(s);
    }
    ev.end_tick(t, unix_ms_at(t));
  }
}

}  // namespace gpuvet::monitor::testing
