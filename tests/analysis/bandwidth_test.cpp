// Copy-bandwidth matrices judged against the envelope of the machine they ran on.
#include <gtest/gtest.h>

#include <algorithm>

#include "analysis/judge.hpp"
#include "test_bandwidth.hpp"
#include "test_machines.hpp"

namespace gpuvet::analysis::testing {
namespace {

TEST(Bandwidth, HealthyH100BoardPasses) {
  // 8 SXM H100 on one node: an HGX board. Gen5 x16 host copies ~53, peer copies ~371 GB/s.
  const auto a = judge_bandwidth_runs({nvbandwidth_run(8, "NVIDIA H100 80GB HBM3", 55, 375)});
  EXPECT_TRUE(a.findings.empty()) << a.findings[0].message;
  ASSERT_EQ(a.bandwidth.size(), 2u);
  EXPECT_NEAR(*a.bandwidth[0].expected_gbps, 63.0 * 0.82, 0.1);
  EXPECT_NEAR(*a.bandwidth[1].expected_gbps, 371.0, 0.01);
  EXPECT_EQ(a.bandwidth[1].cells, 56);
}

TEST(Bandwidth, SlowPairIsNamed) {
  auto run = nvbandwidth_run(8, "NVIDIA H100 80GB HBM3", 55, 375);
  run.matrices[1].values[3][5] = 200.0;
  const auto f = with_code(judge_bandwidth_runs({run}), "bandwidth_below_expected");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].severity, core::Severity::fail);  // 200 of 371 = 54 %
  EXPECT_EQ(f[0].gpus, (std::vector<int>{3, 5}));
  EXPECT_NE(f[0].message.find("GPU 3->5 200 GB/s"), std::string::npos) << f[0].message;
}

TEST(Bandwidth, HalfSpeedHostCopyWarnsOrFails) {
  auto run = nvbandwidth_run(8, "NVIDIA H100 80GB HBM3", 55, 375);
  run.matrices[0].values[0][6] = 27.0;  // Gen5 GPU copying at Gen4 speed
  const auto f = with_code(judge_bandwidth_runs({run}), "bandwidth_below_expected");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].gpus, std::vector<int>{6});
  EXPECT_EQ(f[0].severity, core::Severity::fail);
}

TEST(Bandwidth, UnknownPathIsNotJudged) {
  // Two PCIe GPUs with no topology: the peer path is unknown; the host path comes from the catalogue.
  const auto a = judge_bandwidth_runs({nvbandwidth_run(2, "NVIDIA L40S", 25, 1)});
  EXPECT_TRUE(with_code(a, "bandwidth_below_expected").empty());
  EXPECT_FALSE(a.bandwidth[1].expected_gbps.known());
  EXPECT_NE(a.bandwidth[1].expected_basis.find("not judged"), std::string::npos);
}

TEST(Bandwidth, P2pOffOnGeforceIsInfoAndOnNvlinkFails) {
  auto run = nvbandwidth_run(2, "NVIDIA GeForce RTX 4090", 25, 5);
  run.p2p_access = std::vector<std::vector<bool>>{{true, false}, {false, true}};
  auto f = with_code(judge_bandwidth_runs({run}), "p2p_unavailable");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].severity, core::Severity::info);

  auto m = machine(2, kA6000);
  m.links = nv_mesh(2, 4);
  auto bridged = nvbandwidth_run(2, kA6000, 25, 5);
  bridged.p2p_access = run.p2p_access;
  core::Assessment a = judge(m);
  judge_bandwidth({bridged}, m, catalog(), a);
  f = with_code(a, "p2p_unavailable");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].severity, core::Severity::fail);
}

TEST(Bandwidth, P2pSlowerThanStagedCopiesWarnsNamingThePairs) {
  auto f = with_code(judge_bandwidth_runs({p2p_run(3, 9.9, 22.2)}), "p2p_slower_than_staged");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].severity, core::Severity::warn);
  EXPECT_NE(f[0].message.find("3 GPU pairs (0-1, 0-2, 1-2) copy at a median 9.9 GB/s, below the 22.2 GB/s"),
            std::string::npos)
      << f[0].message;
  // Within 10 %, or faster: nothing to say.
  EXPECT_TRUE(with_code(judge_bandwidth_runs({p2p_run(3, 20.5, 22.2)}), "p2p_slower_than_staged").empty());
  EXPECT_TRUE(with_code(judge_bandwidth_runs({p2p_run(3, 26.0, 22.2)}), "p2p_slower_than_staged").empty());
  // Pairs without P2P access copy through the host either way: not this finding.
  auto no_access = p2p_run(2, 9.9, 22.2);
  no_access.p2p_access = std::vector<std::vector<bool>>{{true, false}, {false, true}};
  EXPECT_TRUE(with_code(judge_bandwidth_runs({no_access}), "p2p_slower_than_staged").empty());
}

TEST(Bandwidth, WaivedTestcaseIsSummarisedNotJudged) {
  auto run = nvbandwidth_run(2, "NVIDIA H100 80GB HBM3", 55, 375);
  run.matrices[1].status = std::string("WAIVED");
  run.matrices[1].values.clear();
  const auto a = judge_bandwidth_runs({run});
  EXPECT_NE(a.bandwidth[1].expected_basis.find("WAIVED"), std::string::npos);
}

}  // namespace
}  // namespace gpuvet::analysis::testing

namespace gpuvet::analysis::testing {
namespace {

core::VramCheck vram_check(int gpu, std::uint64_t total_gib, double tested_gib) {
  core::VramCheck c;
  c.gpu = gpu;
  c.name = "NVIDIA H100 80GB HBM3";
  c.total_bytes = total_gib << 30;
  c.tested_bytes = static_cast<std::uint64_t>(tested_gib * 1073741824.0);
  return c;
}

TEST(VramJudge, ContextReserveIsNotShortButMissingGibibytesAre) {
  core::VramRun run;
  run.gpus = {vram_check(0, 80, 78.5), vram_check(1, 80, 76.5), vram_check(2, 80, 60)};
  core::Assessment a;
  judge_vram(run, a);
  ASSERT_EQ(a.findings.size(), 1u);
  EXPECT_EQ(a.findings[0].code, "vram_short");
  EXPECT_EQ(a.findings[0].gpus, std::vector<int>{2});
}

TEST(VramJudge, MiscomparesFailAndAnEarlyStopIsUnverified) {
  core::VramRun run;
  auto bad = vram_check(3, 80, 79);
  bad.miscompares = {{"random", 5ull << 30, (5ull << 30) + 8, 2}};
  auto stopped = vram_check(4, 80, 10);
  stopped.error = std::string("stopped after the 600 s timeout");
  run.gpus = {bad, stopped};
  core::Assessment a;
  judge_vram(run, a);
  ASSERT_EQ(a.findings.size(), 1u);
  EXPECT_EQ(a.findings[0].code, "vram_errors");
  EXPECT_NE(a.findings[0].message.find("5.00 GiB"), std::string::npos) << a.findings[0].message;
  ASSERT_EQ(a.unverified.size(), 1u);  // a partial check is neither short nor passed
  EXPECT_NE(a.unverified[0].find("GPU 4"), std::string::npos);
}

TEST(BandwidthJudge, FarNumaFasterThanOwnNodeIsNamed) {
  auto run = nvbandwidth_run(2, "NVIDIA H100 80GB HBM3", 40, 380);
  core::BandwidthMatrix far = run.matrices[0];
  far.testcase = "host_to_device_far_numa_memcpy_ce";
  far.values[0][1] = 54.0;
  run.matrices.push_back(far);
  const auto a = judge_bandwidth_runs({run});
  const auto it = std::find_if(a.findings.begin(), a.findings.end(), [](const auto& f) { return f.code == "host_copy_far_numa_faster"; });
  ASSERT_NE(it, a.findings.end());
  EXPECT_EQ(it->gpus, std::vector<int>{1});
}

}  // namespace
}  // namespace gpuvet::analysis::testing
