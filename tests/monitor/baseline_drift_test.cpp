// baseline_drift in the alert evaluator (gpuvet monitor --baseline) on synthetic samples: a GPU
// under load hotter or slower than at acceptance fires for that GPU only, with the severity of
// the limits gpuvet trend uses; not before enough of the window was under load, not for an idle
// GPU, not for a GPU the bundle has no results for; it clears when the GPU cools; bounded memory.
#include <gtest/gtest.h>

#include <vector>

#include "alert_test_samples.hpp"
#include "monitor/alert_evaluator.hpp"

namespace gpuvet::monitor {
namespace {

using testing::kEpochMs;

struct Reading {
  double util = 95, temp = 68, clock = 1780;
};

class BaselineDrift : public ::testing::Test {
 protected:
  BaselineDrift() : evaluator_(testing::gpus(3)) {
    core::TrendBaseline b;
    b.label = "bundle";
    b.finished_utc = "2026-01-01T00:00:00Z";
    for (int i = 0; i < 2; ++i) b.gpus.push_back({i, 68.0, 1780.0, 690.0});  // GPU 2: no burn-in results
    evaluator_.set_baseline(b);
  }
  // Samples every 10 s from t_ until t_ + seconds, each GPU reading what `of` gives it.
  template <typename F>
  void run(double seconds, F of) {
    for (const double end = t_ + seconds; t_ < end; t_ += 10) {
      for (int gpu = 0; gpu < 3; ++gpu) {
        const Reading r = of(gpu);
        core::TelemetrySample s;
        s.gpu = gpu;
        s.t_s = t_;
        s.unix_ms = kEpochMs + static_cast<std::int64_t>(t_ * 1000);
        s.util_gpu_pct = r.util;
        s.gpu_temp_c = r.temp;
        s.sm_clock_mhz = r.clock;
        s.power_w = 690.0;
        evaluator_.on_sample(s);
      }
      evaluator_.end_tick(t_, kEpochMs + static_cast<std::int64_t>(t_ * 1000));
    }
  }
  std::vector<MonitorAlert> drift() const {
    std::vector<MonitorAlert> out;
    for (auto& a : evaluator_.active()) {
      if (a.code == "baseline_drift") out.push_back(a);
    }
    return out;
  }
  AlertEvaluator evaluator_;
  double t_ = 0;
};

TEST_F(BaselineDrift, HotterUnderLoadFiresForThatGpuOnly) {
  run(20 * 60, [](int gpu) { return Reading{95, gpu == 1 ? 79.0 : 69.0, 1780}; });
  EXPECT_TRUE(drift().empty()) << "20 min under load is less than the 30 min needed";
  run(20 * 60, [](int gpu) { return Reading{95, gpu == 1 ? 79.0 : 69.0, 1780}; });
  auto alerts = drift();
  ASSERT_EQ(alerts.size(), 1u);
  EXPECT_EQ(alerts[0].gpus, std::vector<int>{1});
  EXPECT_EQ(alerts[0].severity, core::Severity::warn);  // +11 °C: warn from 8, fail from 16
  EXPECT_NE(alerts[0].message.find("passed its acceptance burn-in at 68 °C; under load it now runs at 79 °C"), std::string::npos)
      << alerts[0].message;
  EXPECT_FALSE(alerts[0].next_step.empty());
  const auto since = alerts[0].since_unix_ms;
  run(60 * 60, [](int gpu) { return Reading{95, gpu == 1 ? 86.0 : 69.0, 1780}; });
  alerts = drift();
  ASSERT_EQ(alerts.size(), 1u);
  EXPECT_EQ(alerts[0].severity, core::Severity::fail);
  EXPECT_EQ(alerts[0].since_unix_ms, since);
  const auto retained = evaluator_.retained_objects();
  run(3 * 60 * 60, [](int) { return Reading{95, 68, 1780}; });
  EXPECT_TRUE(drift().empty()) << "cooled down for the whole window";
  EXPECT_EQ(evaluator_.retained_objects(), retained);
}

TEST_F(BaselineDrift, SlowerClockFiresAndIdleOrUnknownGpusDoNot) {
  // GPU 0 6 % slower under load; GPU 1 hot but idle (50 %); GPU 2 hot with no baseline.
  run(60 * 60, [](int gpu) {
    if (gpu == 0) return Reading{95, 68, 1670};
    if (gpu == 1) return Reading{50, 90, 1780};
    return Reading{95, 90, 1500};
  });
  const auto alerts = drift();
  ASSERT_EQ(alerts.size(), 1u);
  EXPECT_EQ(alerts[0].gpus, std::vector<int>{0});
  EXPECT_EQ(alerts[0].severity, core::Severity::warn);
  EXPECT_NE(alerts[0].message.find("1670 MHz"), std::string::npos) << alerts[0].message;
}

TEST(BaselineDriftOff, NoBaselineNoAlert) {
  AlertEvaluator evaluator({core::BurninGpu{}});
  core::TelemetrySample s;
  s.util_gpu_pct = 95.0;
  s.gpu_temp_c = 99.0;
  s.sm_clock_mhz = 900.0;
  for (int i = 0; i < 400; ++i) {
    s.t_s = i * 10.0;
    evaluator.on_sample(s);
    evaluator.end_tick(s.t_s, kEpochMs);
  }
  for (const auto& a : evaluator.active()) EXPECT_NE(a.code, "baseline_drift");
}

}  // namespace
}  // namespace gpuvet::monitor
