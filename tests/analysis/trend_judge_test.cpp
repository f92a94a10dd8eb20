// The trend history (buckets, means, counter growth, rollups) and the trend judge (peers at the
// same load, baseline drift, what could not be compared) on hand-built samples.
#include <gtest/gtest.h>

#include "analysis/trend_history.hpp"
#include "analysis/trend_judge.hpp"
#include "test_trend.hpp"

namespace gpuvet::analysis::testing {
namespace {

constexpr double kHour = 3600;

std::vector<core::Finding> with_code(const TrendAssessment& a, const std::string& code) {
  std::vector<core::Finding> out;
  for (const auto& f : a.findings) {
    if (f.code == code) out.push_back(f);
  }
  return out;
}

TEST(TrendBucket, AtMostTwoHundredFortyPointsPerLine) {
  EXPECT_EQ(trend_bucket_s(2 * kHour), 60);
  EXPECT_EQ(trend_bucket_s(24 * kHour), 900);
  EXPECT_EQ(trend_bucket_s(7 * 24 * kHour), 3600);
  EXPECT_EQ(trend_bucket_s(30 * 24 * kHour), 6 * 3600);
}

TEST(TrendHistory, MeansPerBucketAndAbsentStaysAbsent) {
  const auto h = busy_history(2, 2 * kHour, 10, [](core::TelemetrySample& s) {
    if (s.gpu == 1) s.util_gpu_pct = core::Reading<double>::absent("not supported");
    if (s.gpu == 0) s.power_w = s.t_s < 3600 ? 600.0 : 700.0;
  });
  ASSERT_EQ(h.gpus.size(), 2u);
  EXPECT_EQ(h.bucket_s, 60);
  ASSERT_FALSE(h.gpus[0].points.empty());
  EXPECT_DOUBLE_EQ(*h.gpus[0].points.front().power_w, 600.0);
  EXPECT_DOUBLE_EQ(*h.gpus[0].points.back().power_w, 700.0);
  EXPECT_EQ(h.gpus[0].points.front().samples, 6u);
  for (const auto& p : h.gpus[1].points) EXPECT_FALSE(p.util_pct.has_value());  // unknown is not zero
  EXPECT_EQ(h.gpus[1].uuid, "GPU-00000001");
}

TEST(TrendHistory, CounterGrowthPerBucketAcrossAReset) {
  // NVLink CRC grows by 5 per sample on GPU 0 for the first hour; then the driver reloads (counter
  // back to 0) and it grows by 1.
  const auto h = busy_history(2, 2 * kHour, 60, [](core::TelemetrySample& s) {
    if (s.gpu != 0) return;
    const auto n = static_cast<std::uint64_t>(s.t_s / 60);
    const std::uint64_t crc = s.t_s < 3600 ? 5 * n : n - 60;
    s.nvlink = std::vector<core::NvLinkErrorSample>{{0, crc, std::uint64_t{0}, std::uint64_t{0}, std::uint64_t{0}}};
  });
  std::uint64_t total = 0;
  for (const auto& p : h.gpus[0].points) total += p.nvlink_errors.value_or(0);
  EXPECT_EQ(total, 59u * 5 + 60);  // 59 increases of 5, the reset counts from 0, then 60 increases of 1
  std::uint64_t clean = 0;
  for (const auto& p : h.gpus[1].points) clean += p.nvlink_errors.value_or(0);
  EXPECT_EQ(clean, 0u);
  EXPECT_TRUE(h.gpus[1].points.back().nvlink_errors.has_value());  // known zero, not absent
}

TEST(TrendHistory, RollupsWeightByTheirSamplesAndAddTheirCounters) {
  std::vector<core::BurninGpu> gpus(1);
  TrendAccumulator acc(0, 4 * 3600 * 1000, 3600 * 4, 1, gpus);
  RollupInput first;
  first.samples = 3600;
  first.temp_c = 60.0;
  first.max_temp_c = 61.0;
  first.util_pct = 90.0;
  first.nvlink_errors = 5;
  RollupInput second = first;
  second.unix_ms = 3600 * 1000;
  second.samples = 1200;  // a restart within the hour
  second.temp_c = 80.0;
  second.max_temp_c = 82.0;
  second.util_pct = std::nullopt;
  second.nvlink_errors = std::nullopt;
  acc.add_rollup(first);
  acc.add_rollup(second);
  const auto h = acc.finish();
  ASSERT_EQ(h.gpus[0].points.size(), 1u);
  const auto& p = h.gpus[0].points[0];
  EXPECT_EQ(p.samples, 4800u);
  EXPECT_DOUBLE_EQ(*p.temp_c, (60.0 * 3600 + 80.0 * 1200) / 4800);
  EXPECT_DOUBLE_EQ(*p.util_pct, 90.0);  // only the rollup that knew it
  EXPECT_DOUBLE_EQ(*p.max_temp_c, 82.0);
  EXPECT_EQ(p.nvlink_errors, std::optional<std::uint64_t>(5));
  EXPECT_FALSE(p.ecc_corrected.has_value());
  EXPECT_TRUE(p.from_rollups);
}

TEST(TrendJudge, CleanGroupStandsOutNowhere) {
  const auto a = judge_trend(busy_history(8, 6 * kHour, 60), flat_baseline(8));
  EXPECT_TRUE(a.findings.empty());
  EXPECT_TRUE(a.unverified.empty());
  ASSERT_EQ(a.gpus.size(), 8u);
  EXPECT_NEAR(a.gpus[0].comparable_s, 6 * kHour, 120);
}

TEST(TrendJudge, HotterThanPeersNamesTheCardWarnThenFail) {
  const auto warm = judge_trend(busy_history(8, 6 * kHour, 60, [](core::TelemetrySample& s) {
                                  if (s.gpu == 3) s.gpu_temp_c = 77.0;
                                }),
                                std::nullopt);
  auto found = with_code(warm, "hotter_than_peers");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].gpus, std::vector<int>{3});
  EXPECT_EQ(found[0].severity, core::Severity::warn);
  EXPECT_NE(found[0].message.find("hotter than its peers"), std::string::npos) << found[0].message;
  EXPECT_FALSE(found[0].next_step.empty());
  const auto hot = judge_trend(busy_history(8, 6 * kHour, 60, [](core::TelemetrySample& s) {
                                 if (s.gpu == 3) s.gpu_temp_c = 84.0;
                               }),
                               std::nullopt);
  found = with_code(hot, "hotter_than_peers");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].severity, core::Severity::fail);
}

TEST(TrendJudge, AFailCitesTheFigureOfItsFailBuckets) {
  // 3 h at 10 °C over the peers (warn), then 3 h at 18 °C (fail): the fail cites 84 °C, not the
  // 80 °C median of all six hours, which lies under its own fail line (review r3 #8a).
  const auto a = judge_trend(busy_history(8, 6 * kHour, 60, [](core::TelemetrySample& s) {
                               if (s.gpu == 3) s.gpu_temp_c = s.t_s < 3 * kHour ? 76.0 : 84.0;
                               if (s.gpu == 5) s.sm_clock_mhz = s.t_s < 3 * kHour ? 1780.0 * 0.9 : 1780.0 * 0.8;
                             }),
                             std::nullopt);
  auto hot = with_code(a, "hotter_than_peers");
  ASSERT_EQ(hot.size(), 1u);
  EXPECT_EQ(hot[0].severity, core::Severity::fail);
  EXPECT_NE(hot[0].message.find("(84 °C against 6"), std::string::npos) << hot[0].message;
  EXPECT_NE(hot[0].message.find("for 3.0 h of 6.0 h"), std::string::npos) << hot[0].message;
  const auto slow = with_code(a, "slower_than_peers");
  ASSERT_EQ(slow.size(), 1u);
  EXPECT_EQ(slow[0].severity, core::Severity::fail);
  EXPECT_NE(slow[0].message.find("(1424 MHz against 17"), std::string::npos) << slow[0].message;
}

TEST(TrendJudge, ALostGpuIsNobodysPeerAndBlindsNoOne) {
  // GPU 5 lost after 1 h (its samples hold no reading), GPU 4 hot from the start: the others are
  // still compared with the GPUs that have readings (review r3 #5).
  const auto a = judge_trend(busy_history(8, 6 * kHour, 60, [](core::TelemetrySample& s) {
                               if (s.gpu == 4) s.gpu_temp_c = 84.0;
                               if (s.gpu == 5 && s.t_s >= kHour) {
                                 const auto lost = core::Reading<double>::absent("GPU is lost");
                                 s.gpu_temp_c = lost;
                                 s.power_w = lost;
                                 s.sm_clock_mhz = lost;
                                 s.util_gpu_pct = lost;
                               }
                             }),
                             std::nullopt);
  const auto hot = with_code(a, "hotter_than_peers");
  ASSERT_EQ(hot.size(), 1u);
  EXPECT_EQ(hot[0].gpus, std::vector<int>{4});
  EXPECT_EQ(hot[0].severity, core::Severity::fail);
  EXPECT_NEAR(a.gpus[0].comparable_s, 6 * kHour, 60);
  for (const auto& line : a.unverified) EXPECT_EQ(line.find("too short to judge"), std::string::npos) << line;
}

TEST(TrendJudge, NotAtTheSameLoadOrNotForHoursIsNotJudgedHotter) {
  // GPU 3 hotter, but at 40 % utilization while the others run at 95 %: not the same load.
  auto a = judge_trend(busy_history(8, 6 * kHour, 60, [](core::TelemetrySample& s) {
                         if (s.gpu == 3) {
                           s.gpu_temp_c = 84.0;
                           s.util_gpu_pct = 40.0;
                         }
                       }),
                       std::nullopt);
  EXPECT_TRUE(with_code(a, "hotter_than_peers").empty());
  EXPECT_DOUBLE_EQ(a.gpus[3].comparable_s, 0);
  // Not compared is not passed: the GPU left out is named, with its load against its peers'.
  ASSERT_EQ(a.unverified.size(), 1u);
  EXPECT_NE(a.unverified[0].find("GPU 3 ran at its peers' load for 0 min"), std::string::npos) << a.unverified[0];
  EXPECT_NE(a.unverified[0].find("40 % while its peers ran at 95 %"), std::string::npos) << a.unverified[0];
  EXPECT_NE(a.unverified[0].find("utilization_below_peers"), std::string::npos) << a.unverified[0];
  // Hotter for one hour of six only.
  a = judge_trend(busy_history(8, 6 * kHour, 60, [](core::TelemetrySample& s) {
                    if (s.gpu == 3 && s.t_s < kHour) s.gpu_temp_c = 84.0;
                  }),
                  std::nullopt);
  EXPECT_TRUE(with_code(a, "hotter_than_peers").empty());
}

TEST(TrendJudge, HotForEighteenHoursOfAWeekStandsOut) {
  // 18 h of 120 h: less than half of the comparable time, but hours in a row.
  const auto a = judge_trend(busy_history(8, 120 * kHour, 300, [](core::TelemetrySample& s) {
                               if (s.gpu == 4 && s.t_s >= 30 * kHour && s.t_s < 48 * kHour) s.gpu_temp_c = 87.0;
                             }),
                             std::nullopt);
  const auto found = with_code(a, "hotter_than_peers");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].gpus, std::vector<int>{4});
  EXPECT_EQ(found[0].severity, core::Severity::fail);
  EXPECT_NE(found[0].message.find("for 18.0 h of 120."), std::string::npos) << found[0].message;
}

TEST(TrendJudge, UtilizationBelowPeersWithTheDaemonsDefinition) {
  // GPU 5 at 60 % while the group runs at 95 %: below 80 % of the group's mean (mean of means).
  const auto a = judge_trend(busy_history(8, 6 * kHour, 60, [](core::TelemetrySample& s) {
                               if (s.gpu == 5 && s.t_s >= 2 * kHour) s.util_gpu_pct = 60.0;
                             }),
                             std::nullopt);
  const auto found = with_code(a, "utilization_below_peers");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].gpus, std::vector<int>{5});
  EXPECT_EQ(found[0].severity, core::Severity::warn);
  EXPECT_NE(found[0].message.find("utilization 60 % against its group's mean of 91 %"), std::string::npos) << found[0].message;
  EXPECT_NE(found[0].message.find("2026-12-01 02:00 UTC to 2026-12-01 06:00 UTC"), std::string::npos) << found[0].message;
  // 78 % of a 95 % group is 82 % of its mean: not below. An idle group is not compared.
  EXPECT_TRUE(with_code(judge_trend(busy_history(8, 6 * kHour, 60, [](core::TelemetrySample& s) {
                                      if (s.gpu == 5) s.util_gpu_pct = 78.0;
                                    }),
                                    std::nullopt),
                        "utilization_below_peers")
                  .empty());
  EXPECT_TRUE(with_code(judge_trend(busy_history(8, 6 * kHour, 60, [](core::TelemetrySample& s) {
                                      s.util_gpu_pct = s.gpu == 5 ? 10.0 : 40.0;
                                    }),
                                    std::nullopt),
                        "utilization_below_peers")
                  .empty());
  // Below for less than the daemon's 5-minute window (1-minute buckets over 2 h): not named; 6 min: named.
  const auto lag_for = [](double seconds) {
    return with_code(judge_trend(busy_history(8, 2 * kHour, 10, [seconds](core::TelemetrySample& s) {
                                   if (s.gpu == 5 && s.t_s < seconds) s.util_gpu_pct = 20.0;
                                 }),
                                 std::nullopt),
                     "utilization_below_peers");
  };
  EXPECT_TRUE(lag_for(240).empty());
  EXPECT_EQ(lag_for(360).size(), 1u);
}

TEST(TrendJudge, IdleGroupIsNotComparedAndSaysSo) {
  const auto a = judge_trend(busy_history(8, 6 * kHour, 60, [](core::TelemetrySample& s) {
                               s.util_gpu_pct = 3.0;
                               if (s.gpu == 2) s.sm_clock_mhz = 345.0;
                             }),
                             std::nullopt);
  EXPECT_TRUE(a.findings.empty());
  ASSERT_EQ(a.unverified.size(), 1u);
  EXPECT_NE(a.unverified[0].find("same load"), std::string::npos) << a.unverified[0];
}

TEST(TrendJudge, SlowerThanPeers) {
  const auto a = judge_trend(busy_history(8, 6 * kHour, 60, [](core::TelemetrySample& s) {
                               if (s.gpu == 6) s.sm_clock_mhz = 1600.0;  // 10 % below
                             }),
                             std::nullopt);
  const auto found = with_code(a, "slower_than_peers");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].gpus, std::vector<int>{6});
  EXPECT_EQ(found[0].severity, core::Severity::warn);
  ASSERT_TRUE(a.gpus[6].clock_below_peers_share.has_value());
  EXPECT_NEAR(*a.gpus[6].clock_below_peers_share, 0.10, 0.01);
}

TEST(TrendJudge, BurninHistoryWithoutUtilizationComparesLoadedSamples) {
  const auto a = judge_trend(busy_history(4, 6 * kHour, 60, [](core::TelemetrySample& s) {
                               s.util_gpu_pct = core::Reading<double>::absent("not sampled");
                               s.tflops = 790.0;
                               if (s.gpu == 1) s.gpu_temp_c = 78.0;
                             }),
                             std::nullopt);
  const auto found = with_code(a, "hotter_than_peers");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].gpus, std::vector<int>{1});
}

TEST(TrendJudge, BaselineDriftPassedAt66NowAt79) {
  const auto a = judge_trend(busy_history(8, 6 * kHour, 60, [](core::TelemetrySample& s) {
                               if (s.gpu == 4) s.gpu_temp_c = 79.0;
                             }),
                             flat_baseline(8));
  const auto drift = with_code(a, "baseline_drift");
  ASSERT_EQ(drift.size(), 1u);
  EXPECT_EQ(drift[0].gpus, std::vector<int>{4});
  EXPECT_EQ(drift[0].severity, core::Severity::warn);
  EXPECT_NE(drift[0].message.find("at 66 °C"), std::string::npos) << drift[0].message;
  EXPECT_NE(drift[0].message.find("79 °C"), std::string::npos) << drift[0].message;
  // Every card 13 °C hotter than at acceptance: no peer stands out, but all drifted.
  const auto all = judge_trend(busy_history(8, 6 * kHour, 60, [](core::TelemetrySample& s) { s.gpu_temp_c = 79.0; }), flat_baseline(8));
  EXPECT_TRUE(with_code(all, "hotter_than_peers").empty());
  EXPECT_EQ(with_code(all, "baseline_drift").size(), 8u);
}

TEST(TrendJudge, BaselineDriftSaysTheStatisticAndSeesTheLatestDay) {
  // GPU 6 at its acceptance 66 °C for two days, then 86 °C for the third: the period's median is
  // still about 66 °C, the latest day's is +20 °C.
  const auto a = judge_trend(busy_history(8, 72 * kHour, 300, [](core::TelemetrySample& s) {
                               if (s.gpu == 6 && s.t_s >= 48 * kHour) s.gpu_temp_c = 86.0;
                             }),
                             flat_baseline(8));
  const auto found = with_code(a, "baseline_drift");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].gpus, std::vector<int>{6});
  EXPECT_EQ(found[0].severity, core::Severity::fail);
  EXPECT_NE(found[0].message.find("its median is 68 °C over the period"), std::string::npos) << found[0].message;
  EXPECT_NE(found[0].message.find("86 °C over the latest day (+20.0 °C)"), std::string::npos) << found[0].message;
}

TEST(TrendJudge, BaselineClockDriftFails) {
  const auto a = judge_trend(busy_history(8, 6 * kHour, 60, [](core::TelemetrySample& s) { s.sm_clock_mhz = 1450.0; }),
                             flat_baseline(8));
  const auto drift = with_code(a, "baseline_drift");
  ASSERT_EQ(drift.size(), 8u);
  EXPECT_EQ(drift[0].severity, core::Severity::fail);  // 18.5 % lower
}

TEST(TrendJudge, BaselineNotComparedWithoutLoadOrWithoutTheGpu) {
  auto baseline = flat_baseline(7);  // no GPU 7 in the bundle
  const auto a = judge_trend(busy_history(8, 6 * kHour, 60, [](core::TelemetrySample& s) {
                               if (s.gpu == 0) s.util_gpu_pct = 20.0;
                             }),
                             baseline);
  ASSERT_EQ(a.unverified.size(), 3u);
  EXPECT_NE(a.unverified[0].find("GPU 0 ran at its peers' load for 0 min"), std::string::npos) << a.unverified[0];
  EXPECT_NE(a.unverified[1].find("GPU 0 ran under load"), std::string::npos) << a.unverified[1];
  EXPECT_NE(a.unverified[2].find("GPU 7 has no burn-in results"), std::string::npos) << a.unverified[2];
}

TEST(TrendJudge, OneGpuHasNoPeers) {
  const auto a = judge_trend(busy_history(1, 6 * kHour, 60), std::nullopt);
  ASSERT_EQ(a.unverified.size(), 1u);
  EXPECT_NE(a.unverified[0].find("fewer than two GPUs"), std::string::npos);
}

TEST(TrendJudge, PeriodHealthKeepsOnlyHealthCodes) {
  core::BurninAssessment burnin;
  burnin.findings = {{"straggler_gpu", core::Severity::fail, {1}, "slow GEMMs", {}, ""},
                     {"nvlink_errors_growing", core::Severity::warn, {2}, "CRC", {}, ""},
                     {"xid_event", core::Severity::fail, {3}, "Xid 79", {}, ""}};
  const auto health = period_health_findings(burnin);
  ASSERT_EQ(health.size(), 2u);
  EXPECT_EQ(health[0].code, "nvlink_errors_growing");
  EXPECT_EQ(health[1].code, "xid_event");
}

}  // namespace
}  // namespace gpuvet::analysis::testing
