// Copy-bandwidth matrices judged against the envelope of the machine they ran on.
#include <gtest/gtest.h>

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

TEST(Bandwidth, WaivedTestcaseIsSummarisedNotJudged) {
  auto run = nvbandwidth_run(2, "NVIDIA H100 80GB HBM3", 55, 375);
  run.matrices[1].status = std::string("WAIVED");
  run.matrices[1].values.clear();
  const auto a = judge_bandwidth_runs({run});
  EXPECT_NE(a.bandwidth[1].expected_basis.find("WAIVED"), std::string::npos);
}

}  // namespace
}  // namespace gpuvet::analysis::testing
