// Hand-built trend histories (see test_trend.hpp).
#include "test_trend.hpp"

#include <fmt/format.h>

namespace gpuvet::analysis::testing {

namespace {

constexpr std::int64_t kStartUnixMs = 1796083200000;  // 2026-12-01 00:00 UTC

}  // namespace

core::TrendHistory busy_history(int gpus, double duration_s, double interval_s,
                                const std::function<void(core::TelemetrySample&)>& edit) {
  std::vector<core::BurninGpu> info;
  for (int g = 0; g < gpus; ++g) {
    core::BurninGpu b;
    b.index = g;
    b.name = std::string("NVIDIA H100 80GB HBM3");
    b.uuid = fmt::format("GPU-0000000{}", g);
    info.push_back(b);
  }
  const auto to = kStartUnixMs + static_cast<std::int64_t>(duration_s * 1000);
  TrendAccumulator acc(kStartUnixMs, to, trend_bucket_s(duration_s), interval_s, info);
  for (double t = 0; t <= duration_s; t += interval_s) {
    for (int g = 0; g < gpus; ++g) {
      core::TelemetrySample s;
      s.gpu = g;
      s.t_s = t;
      s.unix_ms = kStartUnixMs + static_cast<std::int64_t>(t * 1000);
      s.util_gpu_pct = 95.0;
      s.gpu_temp_c = 66.0 + 0.3 * g;  // small board-to-board spread
      s.sm_clock_mhz = 1780.0 - g;
      s.power_w = 690.0;
      s.ecc_corrected = std::uint64_t{0};
      s.ecc_uncorrected = std::uint64_t{0};
      s.nvlink = std::vector<core::NvLinkErrorSample>{{0, std::uint64_t{0}, std::uint64_t{0}, std::uint64_t{0}, std::uint64_t{0}}};
      if (edit) edit(s);
      acc.add_sample(s);
    }
  }
  return acc.finish();
}

core::TrendBaseline flat_baseline(int gpus) {
  core::TrendBaseline b;
  b.label = "accept-bundle";
  b.finished_utc = "2026-11-01T12:00:00Z";
  b.hostname = "node-a";
  for (int g = 0; g < gpus; ++g) b.gpus.push_back({g, 66.0, 1780.0, 690.0});
  return b;
}

std::vector<core::Finding> trend_gallery_findings() {
  std::vector<core::Finding> out;
  const auto add = [&](const core::TrendHistory& h, const std::optional<core::TrendBaseline>& b) {
    for (auto& f : judge_trend(h, b).findings) out.push_back(std::move(f));
  };
  add(busy_history(8, 6 * 3600, 60, [](core::TelemetrySample& s) {
        if (s.gpu == 3) s.gpu_temp_c = 80.0;
      }),
      std::nullopt);
  add(busy_history(8, 6 * 3600, 60, [](core::TelemetrySample& s) {
        if (s.gpu == 5) s.sm_clock_mhz = 1500.0;
      }),
      std::nullopt);
  add(busy_history(8, 6 * 3600, 60, [](core::TelemetrySample& s) { s.gpu_temp_c = 79.0; }), flat_baseline(8));
  return out;
}

}  // namespace gpuvet::analysis::testing
