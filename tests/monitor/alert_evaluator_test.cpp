// The monitor's alert evaluator on synthetic samples: each rule fires for the GPU that has the
// fault and for no other, not for a clean or an idle group, clears when the condition ends, and
// holds a bounded number of objects however long it runs.
#include <gtest/gtest.h>

#include <vector>

#include "alert_test_samples.hpp"
#include "monitor/alert_evaluator.hpp"

namespace gpuvet::monitor {
namespace {

using testing::gpus;
using testing::kEpochMs;

// Feeds `n` GPUs busy at 100 % from t0 to t1 (1 s ticks); `edit` changes a sample before it is fed.
template <class Edit>
void feed(AlertEvaluator& ev, int n, double t0, double t1, Edit&& edit) {
  testing::feed_ticks(ev, n, t0, t1, 100, std::forward<Edit>(edit));
}

std::vector<std::pair<std::string, std::vector<int>>> fired(const AlertEvaluator& ev) {
  std::vector<std::pair<std::string, std::vector<int>>> out;
  for (const auto& a : ev.active()) out.emplace_back(a.code, a.gpus);
  return out;
}

using Fired = std::vector<std::pair<std::string, std::vector<int>>>;

TEST(AlertEvaluator, UtilizationBelowPeersFiresForTheLaggingGpuOnly) {
  AlertEvaluator ev(gpus(8));
  feed(ev, 8, 0, 200, [](core::TelemetrySample& s) {
    if (s.gpu == 3) s.util_gpu_pct = 60.0;
  });
  EXPECT_TRUE(ev.active().empty()) << "the 5-minute window is not full yet";
  feed(ev, 8, 201, 400, [](core::TelemetrySample& s) {
    if (s.gpu == 3) s.util_gpu_pct = 60.0;
  });
  ASSERT_EQ(fired(ev), (Fired{{"utilization_below_peers", {3}}}));
  const MonitorAlert a = ev.active().front();
  EXPECT_EQ(a.severity, core::Severity::warn);
  EXPECT_EQ(a.since_unix_ms, kEpochMs + 300'000);  // the first tick with a full window
  EXPECT_FALSE(a.next_step.empty());
  // 60 against a group mean of 95: 36.8 % below it (relative reading).
  EXPECT_NE(a.message.find("37 % below its group's mean of 95 %"), std::string::npos) << a.message;
}

TEST(AlertEvaluator, TwentyPercentIsRelativeToTheGroupMean) {
  // Group mean 90 (one at 76, seven at ~92): 76 is 15.6 % below: no alert; at 70 it is 22 % below.
  AlertEvaluator near(gpus(8));
  feed(near, 8, 0, 400, [](core::TelemetrySample& s) { s.util_gpu_pct = s.gpu == 0 ? 76.0 : 92.0; });
  EXPECT_TRUE(near.active().empty());
  AlertEvaluator far(gpus(8));
  feed(far, 8, 0, 400, [](core::TelemetrySample& s) { s.util_gpu_pct = s.gpu == 0 ? 70.0 : 92.0; });
  EXPECT_EQ(fired(far), (Fired{{"utilization_below_peers", {0}}}));
}

TEST(AlertEvaluator, CleanBusyGroupFiresNothing) {
  AlertEvaluator ev(gpus(8));
  feed(ev, 8, 0, 1000, [](core::TelemetrySample& s) { s.util_gpu_pct = 97.0 + (s.gpu % 3); });
  EXPECT_TRUE(ev.active().empty());
}

TEST(AlertEvaluator, IdleGroupFiresNothing) {
  AlertEvaluator ev(gpus(8));
  feed(ev, 8, 0, 1000, [](core::TelemetrySample& s) { s.util_gpu_pct = s.gpu == 3 ? 2.0 : 20.0; });
  EXPECT_TRUE(ev.active().empty()) << "a group at 18 % is not busy";
}

TEST(AlertEvaluator, UtilizationAlertClearsWhenTheGpuCatchesUp) {
  AlertEvaluator ev(gpus(4));
  feed(ev, 4, 0, 400, [](core::TelemetrySample& s) { s.util_gpu_pct = s.gpu == 1 ? 50.0 : 100.0; });
  ASSERT_EQ(fired(ev).size(), 1u);
  feed(ev, 4, 401, 800, [](core::TelemetrySample&) {});
  EXPECT_TRUE(ev.active().empty());
}

TEST(AlertEvaluator, NvlinkErrorsGrowingNamesGpuLinkRateAndSince) {
  AlertEvaluator ev(gpus(4));
  const auto links = [](core::TelemetrySample& s) {
    std::vector<core::NvLinkErrorSample> v;
    for (int l = 0; l < 2; ++l) {
      core::NvLinkErrorSample e;
      e.link = l;
      const bool bad = s.gpu == 2 && l == 1 && s.t_s > 100;
      const auto count = bad ? static_cast<std::uint64_t>((s.t_s - 100) * 2) : 0;  // 120 per minute
      e.crc_flit = count;
      e.crc_data = std::uint64_t{0};
      e.replay = count;
      e.recovery = std::uint64_t{0};
      v.push_back(e);
    }
    s.nvlink = v;
  };
  feed(ev, 4, 0, 100, links);
  EXPECT_TRUE(ev.active().empty());
  feed(ev, 4, 101, 400, links);
  ASSERT_EQ(fired(ev), (Fired{{"nvlink_errors_growing", {2}}}));
  const MonitorAlert a = ev.active().front();
  EXPECT_EQ(a.since_unix_ms, kEpochMs + 101'000);
  EXPECT_EQ(a.severity, core::Severity::fail) << "replays grew by more than 1";
  EXPECT_NE(a.message.find("link 1 crc_flit +600 (120.0/min)"), std::string::npos) << a.message;
  // Stops growing: the alert holds for the counter window (15 min), then clears.
  const auto frozen = [](core::TelemetrySample& s) {
    core::NvLinkErrorSample e;
    e.link = 1;
    e.crc_flit = std::uint64_t{s.gpu == 2 ? 600u : 0u};
    e.replay = std::uint64_t{s.gpu == 2 ? 600u : 0u};
    s.nvlink = std::vector<core::NvLinkErrorSample>{e};
  };
  feed(ev, 4, 401, 1000, frozen);
  EXPECT_EQ(fired(ev).size(), 1u);
  feed(ev, 4, 1001, 1400, frozen);
  EXPECT_TRUE(ev.active().empty());
}

TEST(AlertEvaluator, XidCarriesNvidiasActionAndExpires) {
  AlertEvaluator ev(gpus(2));
  feed(ev, 2, 0, 10, [](core::TelemetrySample&) {});
  ev.on_event({1, 10, core::TelemetryEventKind::xid, 48, "Xid 48"}, kEpochMs + 10'000);
  feed(ev, 2, 11, 20, [](core::TelemetrySample&) {});
  ASSERT_EQ(fired(ev), (Fired{{"xid_event", {1}}}));
  const MonitorAlert a = ev.active().front();
  EXPECT_EQ(a.severity, core::Severity::fail);
  EXPECT_NE(a.message.find("reset the GPU (RESET_GPU)"), std::string::npos) << a.message;
  EXPECT_NE(a.next_step.find("RESET_GPU"), std::string::npos);
  feed(ev, 2, 21, 3700, [](core::TelemetrySample&) {});
  EXPECT_TRUE(ev.active().empty()) << "an Xid alert holds one hour after the last one";
}

TEST(AlertEvaluator, LostGpuIsReportedAndLeftOutOfTheGroup) {
  AlertEvaluator ev(gpus(4));
  feed(ev, 4, 0, 400, [](core::TelemetrySample& s) {
    if (s.gpu == 0 && s.t_s >= 100) {
      s.util_gpu_pct = s.gpu_temp_c = s.power_w = s.sm_clock_mhz = core::Absent{"NVML_ERROR_GPU_IS_LOST"};
    }
  });
  ASSERT_EQ(fired(ev), (Fired{{"gpu_lost", {0}}}));
  EXPECT_EQ(ev.active().front().since_unix_ms, kEpochMs + 100'000);
}

TEST(AlertEvaluator, OtherRulesEachFireForTheirGpu) {
  AlertEvaluator ev(gpus(6));
  feed(ev, 6, 0, 200, [](core::TelemetrySample& s) {
    if (s.gpu == 0 && s.t_s > 50) s.ecc_uncorrected = std::uint64_t{1};
    if (s.gpu == 1 && s.t_s > 50) s.remap_pending = true;
    if (s.gpu == 2 && s.t_s > 50) s.retired_pages_pending = true;
    if (s.gpu == 3) s.pcie_replays = static_cast<std::uint64_t>(s.t_s);  // 60 per minute
    if (s.gpu == 4 && s.t_s > 50) s.clocks_event_reasons = core::clocks_event::hw_thermal_slowdown;
    if (s.gpu == 5 && s.t_s > 190) s.clocks_event_reasons = core::clocks_event::sw_thermal_slowdown;  // only 10 s
  });
  EXPECT_EQ(fired(ev), (Fired{{"ecc_errors_new", {0}},
                              {"pcie_replays", {3}},
                              {"retired_pages", {2}},
                              {"row_remap_pending", {1}},
                              {"throttle_reasons", {4}}}));
}

TEST(AlertEvaluator, RetainedObjectsDoNotGrowWithUptime) {
  AlertEvaluator ev(gpus(8));
  const auto growing = [](core::TelemetrySample& s) {
    core::NvLinkErrorSample e;
    e.link = 0;
    e.crc_flit = static_cast<std::uint64_t>(s.t_s);
    s.nvlink = std::vector<core::NvLinkErrorSample>{e};
    s.util_gpu_pct = 90.0 + static_cast<double>(static_cast<int>(s.t_s) % 7);
  };
  feed(ev, 8, 0, 3600, growing);
  const std::size_t after_hour = ev.retained_objects();
  feed(ev, 8, 3601, 6 * 3600, growing);
  EXPECT_EQ(ev.retained_objects(), after_hour);
}

}  // namespace
}  // namespace gpuvet::monitor
