// The burn-in's progress table as text, on its own: the frame's lines, n/a for an unknown
// reading, the throttle reasons, the cursor moves of a redraw, and an event line.
#include <gtest/gtest.h>

#include "report/burnin_progress_text.hpp"

namespace gpuvet::report {
namespace {

std::vector<core::TelemetrySample> two_gpus() {
  std::vector<core::TelemetrySample> out(2);
  out[0].gpu = 0;
  out[0].tflops = 790.0;
  out[0].gpu_temp_c = 65.0;
  out[0].sm_clock_mhz = 1980.0;
  out[0].power_w = 690.0;
  out[0].clocks_event_reasons = core::clocks_event::gpu_idle;
  out[1].gpu = 1;
  out[1].clocks_event_reasons = core::clocks_event::sw_power_cap;
  return out;
}

TEST(BurninProgressText, OneHeaderAndALinePerGpu) {
  const auto latest = two_gpus();
  const std::vector<int> stopped = {1};
  const auto frame = render_burnin_progress({3723, 7200, latest, stopped}, false);
  EXPECT_EQ(frame.lines, 3);
  EXPECT_EQ(frame.text,
            "burn-in 01:02:03 / 02:00:00 (remaining 00:57:57)\n"
            "  GPU0      790.0 TFLOP/s     65 °C      1980 MHz      690 W  -\n"
            "  GPU1        n/a TFLOP/s    n/a °C       n/a MHz      n/a W  sw_power_cap  [load stopped]\n");
}

TEST(BurninProgressText, ATerminalRedrawGoesBackOverTheLastFrame) {
  const auto latest = two_gpus();
  const std::vector<int> stopped;
  const auto frame = render_burnin_progress({1, 10, latest, stopped}, true, 3);
  EXPECT_EQ(frame.text.rfind("\x1b[3F", 0), 0u) << frame.text;
  EXPECT_NE(frame.text.find("(remaining 00:00:09)\x1b[K\n"), std::string::npos) << frame.text;
  EXPECT_EQ(render_burnin_progress({1, 10, latest, stopped}, false, 3).text.find("\x1b["), std::string::npos);
}

TEST(BurninProgressText, AnEventErasesTheTableAboveIt) {
  const core::TelemetryEvent xid{2, 1800, core::TelemetryEventKind::xid, 48, "Xid 48"};
  EXPECT_EQ(render_burnin_event(xid), "[00:30:00] GPU2 xid 48: Xid 48\n");
  EXPECT_EQ(render_burnin_event(xid, 3), "\x1b[3F\x1b[J[00:30:00] GPU2 xid 48: Xid 48\n");
}

}  // namespace
}  // namespace gpuvet::report
