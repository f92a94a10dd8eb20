// The traffic tally under the traffic rules: counter growth split by whether a traffic interval
// covered the sample, and the cross-check digests' majority per GPU model (a tie names every GPU).
#include <gtest/gtest.h>

#include "analysis/traffic_tally.hpp"

namespace gpuvet::analysis::burnin {
namespace {

core::TelemetrySample crc_sample(int gpu, double t_s, std::uint64_t crc) {
  core::TelemetrySample s;
  s.gpu = gpu;
  s.t_s = t_s;
  const core::Reading<std::uint64_t> zero(std::uint64_t{0});
  s.nvlink = std::vector<core::NvLinkErrorSample>{{3, crc, zero, crc, zero}};
  return s;
}

core::TrafficInterval digests(double t_s, const std::vector<std::uint64_t>& per_gpu) {
  core::TrafficInterval i{t_s - 60, t_s, {}, {}};
  for (std::size_t g = 0; g < per_gpu.size(); ++g) {
    core::GpuTraffic t;
    t.gpu = static_cast<int>(g);
    t.gemm_digest = per_gpu[g];
    i.gpus.push_back(std::move(t));
  }
  return i;
}

TEST(TrafficTally, GrowthIsSplitByWhetherTrafficRan) {
  TrafficTally tally;
  // Traffic from 60 to 120 s only.
  tally.on_interval({60, 120, {}, {}}, {});
  std::uint64_t crc = 0;
  for (double t = 10; t <= 180; t += 10) {
    crc += t > 60 && t <= 120 ? 5 : 1;  // 5 per sample under traffic, 1 while idle
    tally.on_sample(crc_sample(0, t, crc));
  }
  const LinkCounters& c = tally.links.at({0, 3});
  EXPECT_EQ(c.crc.under_traffic, 30u);  // 70..120 s: 6 samples
  EXPECT_EQ(c.crc.idle, 11u);           // 20..60 s and 130..180 s (the first sample is the baseline)
  EXPECT_EQ(c.crc.first_under_traffic_s, 70);
  EXPECT_EQ(c.replay.under_traffic, 30u);
  EXPECT_DOUBLE_EQ(tally.traffic_s(), 60);
}

TEST(TrafficTally, TheMinorityDigestIsCountedAndATieNamesBoth) {
  TrafficTally tally;
  const std::map<int, std::string> names = {{0, "H100"}, {1, "H100"}, {2, "H100"}};
  tally.on_interval(digests(60, {7, 7, 7}), names);
  tally.on_interval(digests(120, {7, 9, 7}), names);
  EXPECT_EQ(tally.digest_mismatches.size(), 1u);
  EXPECT_EQ(tally.digest_mismatches.at(1), 1u);
  EXPECT_EQ(tally.first_mismatch_s.at(1), 120);
  TrafficTally pair;
  const std::map<int, std::string> two = {{0, "H100"}, {1, "H100"}};
  pair.on_interval(digests(60, {7, 9}), two);
  EXPECT_EQ(pair.digest_mismatches.size(), 2u) << "with two GPUs neither can be trusted";
  TrafficTally models;
  const std::map<int, std::string> mixed = {{0, "H100"}, {1, "H100"}, {2, "H200"}};
  models.on_interval(digests(60, {7, 7, 9}), mixed);
  EXPECT_TRUE(models.digest_mismatches.empty()) << "another model's GEMM may round differently";
  EXPECT_EQ(models.digests_compared, 1u);
}

}  // namespace
}  // namespace gpuvet::analysis::burnin
