// Attribution of slow GPU sets: the planted straggler or slow link is named, healthy and
// unevenly connected machines give nothing, and scaling is judged against the best subset.
#include <gtest/gtest.h>

#include <algorithm>

#include "analysis/collective_attribution.hpp"
#include "analysis/scaling_nodes.hpp"
#include "test_attribution.hpp"

namespace gpuvet::analysis::testing {
namespace {

const core::Link kNv18{core::LinkKind::nvlink, 18};

std::vector<core::Finding> with_code(const std::vector<core::Finding>& all, const std::string& code) {
  std::vector<core::Finding> out;
  std::copy_if(all.begin(), all.end(), std::back_inserter(out), [&](const auto& f) { return f.code == code; });
  return out;
}

TEST(CollectiveAttribution, HealthyMachineGivesNothing) {
  EXPECT_TRUE(attribute_scaling(planted_observation(8, 360, {}), uniform_machine(8, kNv18)).empty());
}

TEST(CollectiveAttribution, NamesTheStraggler) {
  const auto findings = attribute_scaling(planted_observation(8, 360, {{5, 0.6}}), uniform_machine(8, kNv18));
  const auto stragglers = with_code(findings, "straggler_gpu");
  ASSERT_EQ(stragglers.size(), 1u);
  EXPECT_EQ(stragglers[0].gpus, std::vector<int>{5});
  EXPECT_EQ(stragglers[0].severity, core::Severity::fail);  // 60 % < 80 %
  EXPECT_NE(stragglers[0].message.find("216 GB/s"), std::string::npos) << stragglers[0].message;
  EXPECT_TRUE(with_code(findings, "slow_link").empty());
  EXPECT_EQ(with_code(findings, "scaling_below_expected").size(), 1u);
}

TEST(CollectiveAttribution, MildStragglerWarns) {
  const auto findings = attribute_scaling(planted_observation(8, 360, {{2, 0.85}}), uniform_machine(8, kNv18));
  const auto stragglers = with_code(findings, "straggler_gpu");
  ASSERT_EQ(stragglers.size(), 1u);
  EXPECT_EQ(stragglers[0].severity, core::Severity::warn);
}

TEST(CollectiveAttribution, TwoStragglersAreBothNamed) {
  const auto findings = attribute_scaling(planted_observation(8, 360, {{1, 0.5}, {6, 0.5}}), uniform_machine(8, kNv18));
  const auto stragglers = with_code(findings, "straggler_gpu");
  ASSERT_EQ(stragglers.size(), 2u);
  EXPECT_EQ(stragglers[0].gpus, std::vector<int>{1});
  EXPECT_EQ(stragglers[1].gpus, std::vector<int>{6});
  EXPECT_TRUE(with_code(findings, "slow_link").empty());
}

TEST(CollectiveAttribution, NamesTheSlowLinkNotItsEnds) {
  const auto findings = attribute_scaling(planted_observation(8, 360, {}, {2, 5}, 0.5), uniform_machine(8, kNv18));
  EXPECT_TRUE(with_code(findings, "straggler_gpu").empty());
  const auto links = with_code(findings, "slow_link");
  ASSERT_EQ(links.size(), 1u);
  EXPECT_EQ(links[0].gpus, (std::vector<int>{2, 5}));
}

TEST(CollectiveAttribution, SlowLinkFromSubsetsAlone) {
  auto obs = planted_observation(8, 360, {}, {0, 7}, 0.6);
  obs.pairs.clear();
  const auto links = with_code(attribute_scaling(obs, uniform_machine(8, kNv18)), "slow_link");
  ASSERT_EQ(links.size(), 1u);
  EXPECT_EQ(links[0].gpus, (std::vector<int>{0, 7}));
}

TEST(CollectiveAttribution, UnevenTopologyIsNotBlamedOnAGpu) {
  // GPUs 0-3 in an NVLink mesh, 4-7 over PCIe: PCIe pairs are slower, but only compared with
  // each other, so nothing is a straggler or slow link.
  auto machine = uniform_machine(8, {core::LinkKind::sys, 0});
  auto& links = machine.links.value();
  for (int a = 0; a < 4; ++a)
    for (int b = a + 1; b < 4; ++b) links.set_symmetric(a, b, {core::LinkKind::nvlink, 4});
  ScalingObservation obs;
  obs.op = "all_reduce";
  for (int a = 0; a < 8; ++a)
    for (int b = a + 1; b < 8; ++b) obs.pairs.push_back({{a, b}, (a < 4 && b < 4) ? 80.0 : 12.0});
  obs.subsets.push_back({{0, 1, 2, 3}, 78.0});
  obs.subsets.push_back({{0, 1, 2, 4}, 12.0});
  obs.subsets.push_back({{4, 5, 6, 7}, 12.0});
  obs.all = SubsetBusbw{{0, 1, 2, 3, 4, 5, 6, 7}, 11.0};
  const auto findings = attribute_scaling(obs, machine);
  EXPECT_TRUE(with_code(findings, "straggler_gpu").empty());
  EXPECT_TRUE(with_code(findings, "slow_link").empty());
  // ... yet the machine does not scale: 11 of 78 GB/s, explained by the PCIe crossing, still fails.
  const auto scaling = with_code(findings, "scaling_below_expected");
  ASSERT_EQ(scaling.size(), 1u);
  EXPECT_EQ(scaling[0].severity, core::Severity::fail);
  EXPECT_NE(scaling[0].message.find("SYS"), std::string::npos) << scaling[0].message;
}

TEST(CollectiveAttribution, SocketCrossingDropIsInformation) {
  auto machine = uniform_machine(8, {core::LinkKind::sys, 0});
  auto& links = machine.links.value();
  for (int a = 0; a < 4; ++a)
    for (int b = a + 1; b < 4; ++b) links.set_symmetric(a, b, {core::LinkKind::node, 0});
  ScalingObservation obs;
  obs.op = "all_reduce";
  obs.subsets.push_back({{0, 1, 2, 3}, 19.0});
  obs.all = SubsetBusbw{{0, 1, 2, 3, 4, 5, 6, 7}, 14.0};
  const auto scaling = with_code(attribute_scaling(obs, machine), "scaling_below_expected");
  ASSERT_EQ(scaling.size(), 1u);
  EXPECT_EQ(scaling[0].severity, core::Severity::info);
}

TEST(CollectiveAttribution, FourGpuMachineScalesAgainstPairs) {
  const auto findings = attribute_scaling(planted_observation(4, 360, {{0, 0.5}}), uniform_machine(4, kNv18));
  EXPECT_EQ(with_code(findings, "straggler_gpu").size(), 1u);
  const auto scaling = with_code(findings, "scaling_below_expected");
  ASSERT_EQ(scaling.size(), 1u);
  EXPECT_NE(scaling[0].message.find("from 2 to 4 GPUs"), std::string::npos) << scaling[0].message;
}

TEST(CollectiveAttribution, UnmeasuredSetsAreNotSlow) {
  auto obs = planted_observation(8, 360, {});
  obs.pairs[0].busbw_gbps = core::Reading<double>::absent("timed out");
  obs.all->busbw_gbps = core::Reading<double>::absent("timed out");
  EXPECT_TRUE(attribute_scaling(obs, uniform_machine(8, kNv18)).empty());
}

TEST(CollectiveAttribution, HangNamesPendingGpusAndSize) {
  const auto findings = judge_hangs({{"all_gather", {0, 1, 2, 3}, 1ull << 30, {2}, "rank 2: NCCL error 6", 30}});
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].code, "collective_hung");
  EXPECT_EQ(findings[0].gpus, std::vector<int>{2});
  EXPECT_NE(findings[0].message.find("1073741824 B"), std::string::npos) << findings[0].message;
  EXPECT_NE(findings[0].message.find("GPU 2 had not finished"), std::string::npos) << findings[0].message;
}

TEST(NodeInventory, OddNodesAreNamed) {
  const NodeInventory base{"rank 0 (a)", {"H100", "H100"}, {"v1", "v1"}, "565.57.01", "12.7"};
  NodeInventory b = base;
  b.host = "rank 1 (b)";
  NodeInventory c = base;
  c.host = "rank 2 (c)";
  EXPECT_TRUE(judge_nodes({base, b, c}).empty());
  EXPECT_TRUE(judge_nodes({base}).empty());
  c.driver_version = "550.54.15";
  c.vbios = {"v1", "v2"};
  auto findings = judge_nodes({base, b, c});
  ASSERT_EQ(findings.size(), 2u);
  for (const auto& f : findings) {
    EXPECT_EQ(f.code, "node_inventory_mismatch");
    EXPECT_EQ(f.severity, core::Severity::warn);
    EXPECT_NE(f.message.find("rank 2 (c)"), std::string::npos) << f.message;
  }
  b.gpu_names = {"H100"};  // one GPU missing on node b
  findings = judge_nodes({base, b, c});
  ASSERT_FALSE(findings.empty());
  EXPECT_EQ(findings[0].severity, core::Severity::fail);
  EXPECT_NE(findings[0].message.find("rank 1 (b)"), std::string::npos) << findings[0].message;
  // Unknown values are not compared.
  c = base;
  c.host = "rank 2 (c)";
  c.driver_version = "";
  EXPECT_TRUE(judge_nodes({base, c}).empty());
}

}  // namespace
}  // namespace gpuvet::analysis::testing
