// gpuvet trend over hours kept only as hourly rollups: their counter growth and throttled time
// become the period's alerts (RollupHealth, merged with the raw samples' findings), and the part of
// an hour the raw samples cover in part is recovered exactly (RawHourTally: rollup less raw).
#include <gtest/gtest.h>

#include "analysis/trend_rollup_gap.hpp"
#include "analysis/trend_rollup_health.hpp"

namespace gpuvet::analysis {
namespace {

constexpr std::int64_t kStartMs = 1796083200000;  // 2026-12-01 00:00 UTC
constexpr std::int64_t kHourMs = 3600000;

RollupInput hour(int gpu, int h) {
  RollupInput r;
  r.gpu = gpu;
  r.unix_ms = kStartMs + h * kHourMs;
  r.samples = 3600;
  r.temp_c = 66.0;
  r.util_pct = 95.0;
  r.nvlink_crc = r.nvlink_replay = r.nvlink_recovery = r.ecc_corrected = r.ecc_uncorrected = r.pcie_replays = std::uint64_t{0};
  return r;
}

const core::Finding* with_code(const std::vector<core::Finding>& found, const std::string& code) {
  for (const auto& f : found) {
    if (f.code == code) return &f;
  }
  return nullptr;
}

TEST(RollupHealth, QuietHoursGiveNothingButTheirSpan) {
  RollupHealth health(1.0);
  for (int h = 0; h < 24; ++h) health.add(hour(0, h));
  EXPECT_TRUE(health.findings().empty());
  ASSERT_TRUE(health.span());
  EXPECT_EQ(health.span()->first, kStartMs);
  EXPECT_EQ(health.span()->second, kStartMs + 24 * kHourMs);
}

TEST(RollupHealth, NvlinkGrowthIsAnAlertWithItsHoursAndTheRateWhileItGrew) {
  RollupHealth health(1.0);
  for (int h = 0; h < 120; ++h) {
    auto r = hour(2, h);
    if (h >= 24 && h < 48) r.nvlink_crc = std::uint64_t{1800};  // 30 per minute for a day
    health.add(r);
  }
  const auto found = health.findings();
  const auto* f = with_code(found, "nvlink_errors_growing");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->gpus, std::vector<int>{2});
  EXPECT_EQ(f->severity, core::Severity::warn);  // 0.5/s, under DCGM's 100/s
  EXPECT_NE(f->message.find("crc +43200 (30.0/min from 2026-12-02 00:00:00 UTC to 2026-12-03 00:00:00 UTC)"), std::string::npos)
      << f->message;
  EXPECT_NE(f->message.find("hourly rollups"), std::string::npos) << f->message;
}

TEST(RollupHealth, TheTailOfAnEpisodeBeforeThePeriodIsNoWarningOfItsOwn) {
  // An episode at 30/min ended as the period began: its last step (+1) falls in the period's first
  // hour. Told apart from the hour before, it is an info that says so, not "+1 (0.0/min)" as a
  // warning (review r3 #8f).
  RollupHealth health(1.0);
  auto before = hour(2, 47);
  before.nvlink_crc = before.nvlink_replay = std::uint64_t{1800};
  health.add_before(before);
  auto first = hour(2, 48);
  first.nvlink_crc = first.nvlink_replay = std::uint64_t{1};
  health.add(first);
  for (int h = 49; h < 72; ++h) health.add(hour(2, h));
  const auto found = health.findings();
  const auto* f = with_code(found, "nvlink_errors_growing");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, core::Severity::info) << f->message;
  EXPECT_NE(f->message.find("tail of an episode before the period"), std::string::npos) << f->message;
  EXPECT_NE(f->message.find("crc +1 (+1800 in the hour before)"), std::string::npos) << f->message;
  // Without the hour before (or growth of its own later), +1 in an hour still warns, at its rate per hour.
  RollupHealth alone(1.0);
  alone.add(first);
  const auto lone = alone.findings();
  const auto* w = with_code(lone, "nvlink_errors_growing");
  ASSERT_NE(w, nullptr);
  EXPECT_EQ(w->severity, core::Severity::warn);
  EXPECT_EQ(w->message.find("0.0/min"), std::string::npos) << w->message;
  EXPECT_NE(w->message.find("crc +1 at 2026-12-03 01:00:00 UTC"), std::string::npos) << w->message;
}

TEST(RollupHealth, ReplayGrowthFailsEccUncorrectedFailsPcieOverDcgmWarns) {
  RollupHealth health(1.0);
  auto r = hour(1, 3);
  r.nvlink_replay = std::uint64_t{5};
  r.ecc_uncorrected = std::uint64_t{1};
  r.pcie_replays = std::uint64_t{600};  // 10 per minute
  health.add(r);
  const auto found = health.findings();
  ASSERT_NE(with_code(found, "nvlink_errors_growing"), nullptr);
  EXPECT_EQ(with_code(found, "nvlink_errors_growing")->severity, core::Severity::fail);
  ASSERT_NE(with_code(found, "ecc_errors_new"), nullptr);
  EXPECT_EQ(with_code(found, "ecc_errors_new")->severity, core::Severity::fail);
  ASSERT_NE(with_code(found, "pcie_replays"), nullptr);
  EXPECT_EQ(with_code(found, "pcie_replays")->severity, core::Severity::warn);
}

TEST(RollupHealth, ThrottledTimeIsAShareOfTheRollupHoursJudged) {
  RollupHealth health(1.0);
  for (int h = 0; h < 48; ++h) {
    auto r = hour(4, h);
    if (h >= 30) r.throttled = 3600;  // 18 h throttled
    health.add(r);
  }
  const auto found = health.findings();
  const auto* f = with_code(found, "throttle_reasons");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->gpus, std::vector<int>{4});
  EXPECT_NE(f->message.find("18:00:00 in all (37.5 % of the 48:00:00 judged)"), std::string::npos) << f->message;
  EXPECT_NE(f->message.find("hourly rollups"), std::string::npos) << f->message;
  // Under the daemon's 30 s: not an alert.
  RollupHealth brief(1.0);
  auto r = hour(4, 0);
  r.throttled = 20;
  brief.add(r);
  EXPECT_TRUE(brief.findings().empty());
}

TEST(RollupHealth, MergedIntoTheRawFindingOfTheSameCodeAndGpu) {
  core::Finding raw;
  raw.code = "nvlink_errors_growing";
  raw.severity = core::Severity::warn;
  raw.gpus = {2};
  raw.message = "GPU 2: raw";
  core::Finding rollup = raw;
  rollup.severity = core::Severity::fail;
  rollup.message = "GPU 2: rollup";
  core::Finding other = raw;
  other.gpus = {3};
  const auto merged = merge_period_findings({raw}, {rollup, other});
  ASSERT_EQ(merged.size(), 2u);
  EXPECT_EQ(merged[0].severity, core::Severity::fail);
  EXPECT_EQ(merged[0].message, "GPU 2: raw; before the raw samples: GPU 2: rollup");
  EXPECT_EQ(merged[1].gpus, std::vector<int>{3});
}

core::TelemetrySample sample(int gpu, double t_s, double temp, std::uint64_t crc) {
  core::TelemetrySample s;
  s.gpu = gpu;
  s.t_s = t_s;
  s.unix_ms = kStartMs + static_cast<std::int64_t>(t_s * 1000);
  s.gpu_temp_c = temp;
  s.util_gpu_pct = 95.0;
  s.nvlink = std::vector<core::NvLinkErrorSample>{{0, crc, std::uint64_t{0}, std::uint64_t{0}, std::uint64_t{0}}};
  return s;
}

TEST(RawHourTally, TheRollupLessItsRawSamplesIsThePartNoRawSampleCovers) {
  // Hour 1 (3600..7200 s): 2700 s before the raw samples at 60 °C, 900 s of raw samples at 80 °C;
  // the CRC counter grew by 100 before the raw samples and by 10 within them.
  RawHourTally raw;
  for (int t = 6300; t < 7200; ++t) raw.add(sample(0, t, 80.0, 100 + (t >= 7000 ? 10 : 0)));
  auto r = hour(0, 1);
  r.samples = 3600;
  r.temp_c = (2700 * 60.0 + 900 * 80.0) / 3600;
  r.max_temp_c = 80.0;
  r.nvlink_crc = std::uint64_t{110};
  EXPECT_TRUE(raw.covers(0, 1));
  const auto part = raw.remainder(r, 1);
  ASSERT_TRUE(part);
  EXPECT_EQ(part->samples, 2700u);
  EXPECT_DOUBLE_EQ(part->span_s, 2700);
  EXPECT_NEAR(*part->temp_c, 60.0, 1e-9);
  EXPECT_FALSE(part->max_temp_c);  // the hour's maximum may be in the raw part
  EXPECT_EQ(*part->nvlink_crc, 100u);
  EXPECT_EQ(*part->nvlink_errors, 100u);
  // An hour the raw samples cover whole gives nothing; one they do not touch comes back as is.
  RawHourTally whole;
  for (int t = 3600; t < 7200; ++t) whole.add(sample(0, t, 66.0, 0));
  EXPECT_FALSE(whole.remainder(hour(0, 1), 1));
  const auto untouched = raw.remainder(hour(0, 0), 0);
  ASSERT_TRUE(untouched);
  EXPECT_EQ(untouched->samples, 3600u);
}

}  // namespace
}  // namespace gpuvet::analysis
