// The one health judge (analysis/health): one counter type and one held condition whose live and
// period readings agree, and rules whose worst live moment is what a period reports.
#include <gtest/gtest.h>

#include "analysis/health/counter_growth.hpp"
#include "analysis/health/health_judge.hpp"
#include "analysis/health/held_condition.hpp"

namespace gpuvet::analysis::health {
namespace {

core::TelemetrySample sample(int gpu, double t_s) {
  core::TelemetrySample s;
  s.gpu = gpu;
  s.t_s = t_s;
  s.unix_ms = 1796083200000 + static_cast<std::int64_t>(t_s * 1000);
  s.gpu_temp_c = 60.0;
  s.power_w = 600.0;
  s.sm_clock_mhz = 1980.0;
  s.util_gpu_pct = 95.0;
  return s;
}

HealthView live_at(double now_s) {
  HealthView v;
  v.live = true;
  v.now_s = now_s;
  v.words.wall_clock = true;
  v.words.started_unix_ms = 1796083200000;
  return v;
}

HealthView period(double end_s) {
  HealthView v;
  v.now_s = end_s;
  return v;
}

const core::Finding* find(const std::vector<core::Finding>& all, std::string_view code) {
  for (const auto& f : all) {
    if (f.code == code) return &f;
  }
  return nullptr;
}

TEST(CounterGrowth, EpisodesSplitOnAQuietWindowAndThePeakIsTheLiveWorst) {
  const HealthLimits limits;
  CounterGrowth c;
  double live_worst = 0;
  std::uint64_t value = 0;
  for (int t = 0; t <= 600; ++t) {
    if (t >= 100 && t < 160) value += 10;  // a minute at 600/min
    c.observe(t, value, limits);
    live_worst = std::max(live_worst, c.active(t, limits) ? c.rate_per_s(t, limits) : 0.0);
  }
  EXPECT_EQ(c.total(), 600u);
  EXPECT_EQ(c.episodes(), 1u);
  EXPECT_DOUBLE_EQ(c.peak_per_s(), live_worst);
  EXPECT_NEAR(c.peak_per_s(), 10.0, 0.2);
  // Quiet for more than the window: a new episode; the largest is still the first.
  for (int t = 601; t <= 2000; ++t) {
    if (t == 1900) value += 2;
    c.observe(t, value, limits);
  }
  EXPECT_EQ(c.episodes(), 2u);
  EXPECT_EQ(c.latest().growth, 2u);
  EXPECT_EQ(c.largest_episode(), 600u);
  EXPECT_TRUE(c.active(2000, limits));
  EXPECT_FALSE(c.active(1901 + limits.counter_window_s, limits));
}

TEST(CounterGrowth, AResetIsANewBaselineNotGrowth) {
  const HealthLimits limits;
  CounterGrowth c;
  c.observe(0, 500, limits);
  c.observe(1, 3, limits);  // the driver reloaded
  c.observe(2, 4, limits);
  EXPECT_EQ(c.total(), 1u);
}

TEST(CounterGrowth, OneRiseOverOneSecondIsRatedOverAMinute) {
  const HealthLimits limits;
  CounterGrowth c;
  c.observe(0, 0, limits);
  c.observe(1, 5, limits);
  EXPECT_DOUBLE_EQ(c.peak_per_s(), 5.0 / 60);
}

TEST(HeldCondition, LongestRunAndCurrentRun) {
  HeldCondition h;
  h.set_min_run(30);
  for (int t = 0; t < 100; ++t) h.observe(t, (t >= 10 && t < 20) || t >= 50, 1);
  EXPECT_TRUE(h.on());
  EXPECT_DOUBLE_EQ(h.current().length_s(), 49);
  EXPECT_DOUBLE_EQ(h.longest().length_s(), 49);
  EXPECT_DOUBLE_EQ(h.total_s(), 60);
  EXPECT_DOUBLE_EQ(h.first_long_run_s(), 50);
}

// Each rule's period finding has the worst severity its live alert reached at any moment.
TEST(HealthJudge, APeriodSaysTheWorstTheLiveAlertReached) {
  HealthJudge judge;
  core::Severity live_worst = core::Severity::info;
  bool live_seen = false;
  std::uint64_t crc = 0, replay = 0;
  for (int t = 0; t <= 3600; ++t) {
    auto s = sample(2, t);
    if (t >= 600 && t < 700) crc += 200;  // 200/s for 100 s: past DCGM's 100/s
    if (t == 2000 || t == 2001) ++replay;
    s.nvlink = std::vector<core::NvLinkErrorSample>{{1, crc, std::uint64_t{0}, replay, std::uint64_t{0}}};
    judge.on_sample(s);
    for (const auto& f : judge.findings(live_at(t))) {
      if (f.code != "nvlink_errors_growing") continue;
      live_seen = true;
      live_worst = std::max(live_worst, f.severity);
    }
  }
  ASSERT_TRUE(live_seen);
  const auto found = judge.findings(period(3600));
  const auto* f = find(found, "nvlink_errors_growing");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, live_worst);
  EXPECT_EQ(f->severity, core::Severity::fail);
  EXPECT_NE(f->message.find("link 1 crc_flit +20000"), std::string::npos) << f->message;
}

TEST(HealthJudge, ALostGpuIsGpuLostLiveAndOverThePeriodAndSaysOnlyThatLive) {
  HealthJudge judge;
  for (int t = 0; t < 600; ++t) {
    auto s = sample(5, t);
    s.clocks_event_reasons = t > 100 ? core::clocks_event::hw_slowdown : std::uint64_t{0};
    if (t >= 300) {  // nothing answers
      s = core::TelemetrySample{};
      s.gpu = 5;
      s.t_s = t;
      s.power_w = core::Absent{"GPU is lost"};
    }
    judge.on_sample(s);
  }
  const auto live = judge.findings(live_at(599));
  ASSERT_EQ(live.size(), 1u);
  EXPECT_EQ(live[0].code, "gpu_lost");
  EXPECT_NE(live[0].message.find("GPU is lost"), std::string::npos) << live[0].message;
  const auto over = judge.findings(period(599));
  ASSERT_NE(find(over, "gpu_lost"), nullptr);
  EXPECT_EQ(find(over, "gpu_lost")->severity, core::Severity::fail);
  ASSERT_NE(find(over, "throttle_reasons"), nullptr);  // held back before it was lost
  EXPECT_EQ(find(over, "throttle_reasons")->severity, core::Severity::fail);
}

TEST(HealthJudge, APcieLinkThatNarrowsUnderLoadFailsOnceHeldAMinute) {
  HealthJudge judge;
  for (int t = 0; t < 400; ++t) {
    auto s = sample(3, t);
    s.pcie_link_gen = 5;
    s.pcie_link_gen_max = 5;
    s.pcie_link_width_max = 16;
    s.pcie_link_width = t >= 300 ? 8 : 16;
    judge.on_sample(s);
    if (t == 350) {
      EXPECT_TRUE(judge.findings(live_at(t)).empty()) << "held 50 s: not yet";
    }
  }
  const auto live = judge.findings(live_at(399));
  ASSERT_NE(find(live, "pcie_link_degraded"), nullptr);
  EXPECT_EQ(find(live, "pcie_link_degraded")->severity, core::Severity::fail);
  const auto over = judge.findings(period(399));
  ASSERT_NE(find(over, "pcie_link_degraded"), nullptr);
  EXPECT_NE(find(over, "pcie_link_degraded")->message.find("Gen 5 x8 of Gen 5 x16"), std::string::npos);
}

TEST(HealthJudge, AGenerationBelowItsMaximumWhileIdleIsPowerSavingNotAFault) {
  HealthJudge judge;
  for (int t = 0; t < 400; ++t) {
    auto s = sample(3, t);
    s.util_gpu_pct = 0.0;
    s.pcie_link_gen = 1;
    s.pcie_link_gen_max = 5;
    s.pcie_link_width = s.pcie_link_width_max = 16;
    judge.on_sample(s);
  }
  EXPECT_EQ(find(judge.findings(period(399)), "pcie_link_degraded"), nullptr);
}

TEST(HealthJudge, CorrectedEccWarnsUncorrectedFailsAndReplaysUnderDcgmsRateAreInfo) {
  HealthJudge judge;
  for (int t = 0; t < 3600; ++t) {
    auto s = sample(1, t);
    s.ecc_corrected = static_cast<std::uint64_t>(t / 600);
    s.ecc_uncorrected = std::uint64_t{0};
    s.pcie_replays = static_cast<std::uint64_t>(t / 30);  // 2 per minute
    judge.on_sample(s);
  }
  const auto over = judge.findings(period(3599));
  ASSERT_NE(find(over, "ecc_errors_new"), nullptr);
  EXPECT_EQ(find(over, "ecc_errors_new")->severity, core::Severity::warn);
  ASSERT_NE(find(over, "pcie_replays"), nullptr);
  EXPECT_EQ(find(over, "pcie_replays")->severity, core::Severity::info);
  const auto live = judge.findings(live_at(3599));
  ASSERT_NE(find(live, "ecc_errors_new"), nullptr);
  EXPECT_EQ(find(live, "ecc_errors_new")->severity, core::Severity::warn);
}

TEST(HealthJudge, AnXidHoldsItsLiveAlertAnHourAndThePeriodKeepsIt) {
  HealthJudge judge;
  judge.on_sample(sample(0, 0));
  core::TelemetryEvent xid;
  xid.t_s = 10;
  xid.code = 48;
  judge.on_event(xid);
  EXPECT_NE(find(judge.findings(live_at(3000)), "xid_event"), nullptr);
  EXPECT_EQ(find(judge.findings(live_at(10 + 3601)), "xid_event"), nullptr);
  const auto held = judge.findings(period(20000));
  const auto* f = find(held, "xid_event");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, core::Severity::fail);
}

}  // namespace
}  // namespace gpuvet::analysis::health
