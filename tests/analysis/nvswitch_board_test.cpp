// The 8-GPU NVSwitch board rule per node of a multi-node input (nvswitch_board.hpp): the machine
// a multi-node nccl-tests log describes (GPUs with their host) and the fabric the multi-node
// judge expects within each node (node_fabric_for). Case from nccl-tests#276: 2 x 8 H200, the
// last Rank line cut before its model.
#include <gtest/gtest.h>

#include <string>

#include "analysis/fabric_inference.hpp"
#include "analysis/judge.hpp"
#include "test_collectives.hpp"
#include "test_machines.hpp"

namespace gpuvet::analysis::testing {
namespace {

using core::InterconnectClass;

// hosts x per_host GPUs of `name`, GPU N on host N / per_host, as a multi-node log lists them.
core::Machine nodes(int hosts, int per_host, const std::string& name) {
  core::Machine m;
  for (int h = 0; h < hosts; ++h) {
    for (int i = 0; i < per_host; ++i) {
      auto g = gpu(h * per_host + i, name);
      g.host = "node" + std::to_string(h);
      m.gpus.push_back(g);
    }
  }
  return m;
}

void cut_name(core::Gpu& g) { g.name = core::Reading<std::string>::absent("its Rank line is cut before the name"); }

TEST(NvSwitchPerNode, TwoHostsOfEightH100AreNvSwitchWithinEachNode) {
  const auto s = classify_interconnect(nodes(2, 8, kH100), catalog());
  EXPECT_EQ(s.cls, InterconnectClass::nvswitch_full_mesh);
  EXPECT_TRUE(s.inferred);
  EXPECT_NE(s.reasoning.find("inferred, not observed: 2 nodes (node0, node1) of 8 H100 SXM5 80GB modules each"),
            std::string::npos)
      << s.reasoning;
  EXPECT_NE(s.headline.find("NVSwitch full mesh within each of 2 nodes (inferred)"), std::string::npos) << s.headline;
  EXPECT_DOUBLE_EQ(s.gpu_bandwidth_gbps.value(), 450.0);  // 18 links x 25 GB/s
}

TEST(NvSwitchPerNode, OneCutRankLineDoesNotBlockTheInferenceButIsNamed) {
  auto m = nodes(2, 8, kH100);
  cut_name(m.gpus[15]);
  const auto s = classify_interconnect(m, catalog());
  EXPECT_EQ(s.cls, InterconnectClass::nvswitch_full_mesh);
  EXPECT_NE(s.reasoning.find("GPU 15 is listed without its model (its line is cut) and taken as the 8th module"),
            std::string::npos)
      << s.reasoning;
  // A paste is cut once: two GPUs without a name are not one cut line.
  cut_name(m.gpus[3]);
  EXPECT_EQ(classify_interconnect(m, catalog()).cls, InterconnectClass::unknown);
}

TEST(NvSwitchPerNode, WhatIsNotAnEightGpuBoardOnEveryNodeIsNotInferred) {
  // A named GPU that is not in the catalogue is not a cut line.
  auto uncatalogued = nodes(2, 8, kH100);
  uncatalogued.gpus[15].name = kUnknownGpu;
  EXPECT_EQ(classify_interconnect(uncatalogued, catalog()).cls, InterconnectClass::unknown);
  // Different boards on the two nodes.
  auto mixed = nodes(2, 8, kH100);
  for (int i = 8; i < 16; ++i) mixed.gpus[static_cast<size_t>(i)].name = kA100Sxm;
  EXPECT_EQ(classify_interconnect(mixed, catalog()).cls, InterconnectClass::unknown);
  // Four GPUs per node, or DGX-1 V100 nodes (hybrid cube mesh), or PCIe cards.
  EXPECT_EQ(classify_interconnect(nodes(4, 4, kH100), catalog()).cls, InterconnectClass::unknown);
  EXPECT_EQ(classify_interconnect(nodes(2, 8, kV100), catalog()).cls, InterconnectClass::unknown);
  EXPECT_EQ(classify_interconnect(nodes(2, 8, kA100Pcie), catalog()).cls, InterconnectClass::unknown);
  // A GPU whose host is unknown cannot be placed on a node.
  auto unplaced = nodes(2, 8, kH100);
  unplaced.gpus[15].host = core::Reading<std::string>::absent("its Rank line is cut before the host");
  EXPECT_EQ(classify_interconnect(unplaced, catalog()).cls, InterconnectClass::unknown);
  // Nine GPUs on one node, seven on the other.
  auto uneven = nodes(2, 8, kH100);
  uneven.gpus[8].host = std::string("node0");
  EXPECT_EQ(classify_interconnect(uneven, catalog()).cls, InterconnectClass::unknown);
  // An NVSwitch fabric state that is reported but not Completed: not inferred.
  auto fabric = nodes(2, 8, kH100);
  fabric.gpus[0].fabric_state = std::string("In Progress");
  EXPECT_EQ(classify_interconnect(fabric, catalog()).cls, InterconnectClass::unknown);
}

// A 2 x 8 run as nccl-tests prints it: Rank lines with host and model, the last one cut.
core::CollectiveRun two_node_run(double peak_busbw, const std::string& device) {
  auto r = run("all_reduce", 16, peak_busbw, 8ull << 30, device);
  r.nodes = 2;
  for (int i = 0; i < 16; ++i) {
    core::RankDevice d;
    d.rank = i;
    d.host = i < 8 ? "gpu47" : "gpu48";
    d.device = i % 8;
    d.name = i == 15 ? "" : device;
    r.rank_devices.push_back(d);
  }
  return r;
}

TEST(NvSwitchPerNode, MultiNodeJudgeUsesTheNodeBoardInferredFromTheRankLines) {
  Expectations expect;
  expect.nic_count = 8;
  expect.nic_gbit_s = 400;
  const auto r = two_node_run(6.07, kH100);
  const Fabric fabric = node_fabric_for(r, 8, core::Machine{}, catalog(), core::InterconnectSummary{});
  EXPECT_EQ(fabric.cls, InterconnectClass::nvswitch_full_mesh);
  EXPECT_DOUBLE_EQ(fabric.per_gpu_gbps.value(), 450.0);
  core::Assessment a;
  judge_multi_node_collectives({r}, core::Machine{}, expect, catalog(), a);
  ASSERT_EQ(a.collectives.size(), 1U);
  const auto& basis = a.collectives[0].expected_basis;
  EXPECT_EQ(basis.rfind("inferred from the log: 2 nodes (gpu47, gpu48) of 8 H100 SXM5 80GB modules each, each an HGX "
                        "board with NVSwitch (GPU 15 is listed without its model",
                        0),
            0U)
      << basis;
  // 8 NICs x 400 Gb/s x 0.92 = 368 GB/s carry more than the node's own NVSwitch ring: the node bounds the run.
  EXPECT_NE(basis.find("the node's own ring envelope"), std::string::npos) << basis;
  EXPECT_LT(*a.collectives[0].expected_busbw_gbps, 8 * 400 / 8.0 * 0.92);
  EXPECT_GT(*a.collectives[0].expected_busbw_gbps, 300.0);
  bool slow = false;
  for (const auto& f : a.findings) slow = slow || (f.code == "busbw_below_expected" && f.severity == core::Severity::fail);
  EXPECT_TRUE(slow);
}

TEST(NvSwitchPerNode, MultiNodeJudgeWithoutABoardFallsBackToTheNics) {
  Expectations expect;
  expect.nic_count = 8;
  expect.nic_gbit_s = 400;
  // V100 nodes: nothing inferred; the NICs alone bound the run, as before.
  core::Assessment a;
  judge_multi_node_collectives({two_node_run(300, kV100)}, core::Machine{}, expect, catalog(), a);
  ASSERT_EQ(a.collectives.size(), 1U);
  EXPECT_NE(a.collectives[0].expected_basis.find("the node's own fabric is not described"), std::string::npos)
      << a.collectives[0].expected_basis;
  // A partial paste (ranks 0-9 missing): the nodes are not known to hold 8 each.
  auto partial = two_node_run(300, kH100);
  partial.rank_devices.erase(partial.rank_devices.begin(), partial.rank_devices.begin() + 10);
  EXPECT_EQ(node_fabric_for(partial, 8, core::Machine{}, catalog(), core::InterconnectSummary{}).cls,
            InterconnectClass::unknown);
}

}  // namespace
}  // namespace gpuvet::analysis::testing
