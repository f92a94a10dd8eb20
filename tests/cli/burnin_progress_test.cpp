// Live progress: on a terminal the per-GPU lines are redrawn in place (paced on wall time);
// otherwise plain lines appear once per period of run time, and events always get a line.
#include <gtest/gtest.h>

#include <sstream>

#include "cli/burnin_progress.hpp"

namespace gpuvet::testing {
namespace {

std::vector<core::TelemetrySample> samples(double t) {
  std::vector<core::TelemetrySample> out(2);
  for (int g = 0; g < 2; ++g) {
    out[static_cast<std::size_t>(g)].gpu = g;
    out[static_cast<std::size_t>(g)].t_s = t;
    out[static_cast<std::size_t>(g)].tflops = 790.0;
    out[static_cast<std::size_t>(g)].gpu_temp_c = 65.0;
    out[static_cast<std::size_t>(g)].clocks_event_reasons =
        g == 1 ? core::clocks_event::sw_thermal_slowdown | core::clocks_event::sw_power_cap : core::clocks_event::gpu_idle;
  }
  return out;
}

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto pos = text.find(what); pos != std::string::npos; pos = text.find(what, pos + 1)) ++n;
  return n;
}

TEST(BurninProgress, PlainLinesOncePerPeriod) {
  std::ostringstream out;
  cli::BurninProgress progress(out, {false, 60, std::chrono::milliseconds(0)});
  const std::vector<int> stopped = {1};
  for (int t = 1; t <= 180; ++t) {
    const auto latest = samples(t);
    progress.on_tick({static_cast<double>(t), 180, &latest, &stopped});
  }
  const auto latest = samples(180);
  progress.on_finish({180, 180, &latest, &stopped});
  EXPECT_EQ(count(out.str(), "burn-in "), 4u) << out.str();  // t = 1, 61, 121 and the end
  EXPECT_EQ(out.str().find("\x1b["), std::string::npos);
  EXPECT_NE(out.str().find("sw_power_cap,sw_thermal_slowdown  [load stopped]"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("GPU0      790.0 TFLOP/s"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("n/a MHz"), std::string::npos) << out.str();  // unknown is n/a, never 0
}

TEST(BurninProgress, TerminalRedrawsInPlace) {
  std::ostringstream out;
  cli::BurninProgress progress(out, {true, 60, std::chrono::milliseconds(0)});
  const std::vector<int> stopped;
  for (int t = 1; t <= 3; ++t) {
    const auto latest = samples(t);
    progress.on_tick({static_cast<double>(t), 10, &latest, &stopped});
  }
  progress.on_event({1, 3, core::TelemetryEventKind::xid, 48, "Xid 48"});
  EXPECT_EQ(count(out.str(), "\x1b[3F"), 3u) << out.str();  // back over header + 2 GPU lines, then the event clears
  EXPECT_NE(out.str().find("\x1b[J[00:00:03] GPU1 xid 48: Xid 48"), std::string::npos);
}

}  // namespace
}  // namespace gpuvet::testing
