// A trend report for the renderers' tests: 4 GPUs over 24 h sampled each minute, GPU 3 20 °C
// hotter than its peers at the same load, GPU 2 without ECC counters, Xid 79 on GPU 1 at 10 h.
#pragma once

#include <optional>
#include <vector>

#include "analysis/trend_history.hpp"
#include "analysis/trend_judge.hpp"
#include "core/verdict.hpp"
#include "report/trend_report.hpp"

namespace gpuvet::report::testing {

struct TrendFixture {
  core::BurninRunInfo run;
  core::TrendHistory history;
  core::TrendAssessment assessment;
  std::vector<core::Finding> health;
  std::optional<core::TrendBaseline> baseline;
  [[nodiscard]] TrendReport report() const {
    std::vector<core::Finding> all = assessment.findings;
    all.insert(all.end(), health.begin(), health.end());
    return TrendReport{"monitor.db", "24h", run, history, assessment, health, baseline,
                       core::verdict_of(all, assessment.unverified), {}, std::nullopt, std::nullopt};
  }
};

// `gpus` GPUs (at least 4); with a baseline (every GPU at 66 °C, 1780 MHz) when asked.
inline TrendFixture trend_fixture(int gpu_count = 4, bool with_baseline = false) {
  constexpr std::int64_t kStart = 1796083200000;  // 2026-12-01 00:00 UTC
  constexpr double kDay = 24 * 3600;
  TrendFixture fx;
  fx.run.hostname = "node-7";
  fx.run.source = "simulated: hgx-h100-4x";
  fx.run.simulated = true;
  fx.run.interval_s = 60;
  std::vector<core::BurninGpu> gpus(static_cast<std::size_t>(gpu_count));
  for (int g = 0; g < gpu_count; ++g) gpus[static_cast<std::size_t>(g)].index = g;
  analysis::TrendAccumulator acc(kStart, kStart + static_cast<std::int64_t>(kDay * 1000), analysis::trend_bucket_s(kDay), 60, gpus);
  for (double t = 0; t < kDay; t += 60) {
    for (int g = 0; g < gpu_count; ++g) {
      core::TelemetrySample s;
      s.gpu = g;
      s.t_s = t;
      s.unix_ms = kStart + static_cast<std::int64_t>(t * 1000);
      s.util_gpu_pct = 90.0;
      s.gpu_temp_c = g == 3 ? 86.0 : 66.0;
      s.sm_clock_mhz = 1780.0;
      s.power_w = 650.0;
      if (g != 2) {
        s.ecc_corrected = std::uint64_t{0};
        s.ecc_uncorrected = std::uint64_t{0};
      }
      s.nvlink = std::vector<core::NvLinkErrorSample>{{0, std::uint64_t{0}, std::uint64_t{0}, std::uint64_t{0}, std::uint64_t{0}}};
      acc.add_sample(s);
    }
  }
  core::TelemetryEvent xid;
  xid.gpu = 1;
  xid.t_s = 36000;
  xid.code = 79;
  xid.message = "GPU has fallen off the bus";
  acc.add_event(kStart + 36000 * 1000, xid);
  fx.history = acc.finish();
  if (with_baseline) {
    core::TrendBaseline b;
    b.label = "accept-2026-11";
    b.finished_utc = "2026-11-02T10:00:00Z";
    b.hostname = "node-7";
    for (int g = 0; g < gpu_count; ++g) b.gpus.push_back({g, 66.0, 1780.0, 690.0});
    fx.baseline = b;
  }
  fx.assessment = analysis::judge_trend(fx.history, fx.baseline);
  fx.health.push_back({"xid_event", core::Severity::fail, {1}, "Xid 79 on GPU 1 at 10:00:00", {}, "Reboot; replace if it recurs."});
  return fx;
}

}  // namespace gpuvet::report::testing
