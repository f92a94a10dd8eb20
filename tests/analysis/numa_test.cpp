// NUMA balance of GPUs and NICs, and GPUs whose NUMA node contradicts their neighbours.
#include <gtest/gtest.h>

#include "test_machines.hpp"

namespace gpuvet::analysis::testing {
namespace {

using core::LinkKind;

std::vector<core::NumaNode> two_sockets() {
  return {core::NumaNode{0, std::string("0-31,64-95")}, core::NumaNode{1, std::string("32-63,96-127")}};
}

core::Machine on_nodes(const std::vector<int>& nodes) {
  auto m = machine(static_cast<int>(nodes.size()), kH100);
  for (size_t i = 0; i < nodes.size(); ++i) m.gpus[i].numa_node = nodes[i];
  m.numa_nodes = two_sockets();
  return m;
}

core::Nic nic(const std::string& label, int node, std::vector<core::Link> proximity) {
  core::Nic n;
  n.label = label;
  n.name = "mlx5_" + label.substr(3);
  n.numa_node = node;
  n.gpu_proximity = std::move(proximity);
  return n;
}

TEST(NumaImbalance, FivePlusThreeWarns) {
  const auto f = with_code(judge(on_nodes({0, 0, 0, 0, 0, 1, 1, 1})), "numa_imbalance");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].severity, core::Severity::warn);
  EXPECT_EQ(f[0].gpus, (std::vector<int>{0, 1, 2, 3, 4}));
  EXPECT_NE(f[0].message.find("5+3"), std::string::npos) << f[0].message;
}

TEST(NumaImbalance, AllOnOneSocketOfTwoWarns) {
  const auto f = with_code(judge(on_nodes({0, 0, 0, 0, 0, 0, 0, 0})), "numa_imbalance");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_NE(f[0].message.find("8+0"), std::string::npos) << f[0].message;
}

TEST(NumaImbalance, BalancedOrUnknownIsSilent) {
  EXPECT_TRUE(with_code(judge(on_nodes({0, 0, 0, 0, 1, 1, 1, 1})), "numa_imbalance").empty());
  EXPECT_TRUE(with_code(judge(on_nodes({0, 0, 1})), "numa_imbalance").empty());  // odd count: best possible
  auto m = on_nodes({0, 0, 0, 0, 0, 1, 1, 1});
  m.gpus[7].numa_node = core::Reading<int>::absent("N/A");
  EXPECT_TRUE(with_code(judge(m), "numa_imbalance").empty());
  auto single = on_nodes({0, 0, 0, 0});
  single.numa_nodes = std::vector<core::NumaNode>{core::NumaNode{0, std::string("0-63")}};
  EXPECT_TRUE(with_code(judge(single), "numa_imbalance").empty());
}

TEST(NumaImbalance, NicOnNodeWithoutGpus) {
  auto m = on_nodes({0, 0});
  m.numa_nodes = core::Reading<std::vector<core::NumaNode>>::absent("not read");
  m.nics = std::vector<core::Nic>{nic("NIC0", 0, {pcie(LinkKind::pix), pcie(LinkKind::pix)}),
                                  nic("NIC1", 1, {pcie(LinkKind::sys), pcie(LinkKind::sys)})};
  const auto f = with_code(judge(m), "numa_imbalance");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_NE(f[0].message.find("NIC1 (mlx5_1) sits on NUMA node 1"), std::string::npos) << f[0].message;
}

TEST(NumaImbalance, NearestNicAcrossSockets) {
  auto m = machine(4, kH100);
  m.nics = std::vector<core::Nic>{
      nic("NIC0", -1, {pcie(LinkKind::pix), pcie(LinkKind::pxb), pcie(LinkKind::sys), pcie(LinkKind::sys)})};
  const auto f = with_code(judge(m), "numa_imbalance");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].gpus, (std::vector<int>{2, 3}));
  EXPECT_EQ(f[0].message, "GPUs 2, 3 reach the nearest NIC only across the inter-socket link (SYS)");
}

TEST(NumaMisplaced, GpuOnOtherNodeBehindSharedSwitch) {
  auto m = on_nodes({0, 0, 0, 1, 1, 1, 1, 1});
  m.gpus[3].numa_node = 1;
  core::LinkMatrix l = pcie_matrix(8, LinkKind::sys);
  for (int a = 0; a < 4; ++a) {
    for (int b = a + 1; b < 4; ++b) l.set_symmetric(a, b, pcie(LinkKind::pix));
  }
  m.links = l;
  const auto f = with_code(judge(m), "gpu_numa_misplaced");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].gpus, std::vector<int>{3});
  EXPECT_EQ(f[0].message, "GPU 3 reports NUMA node 1 but shares a PCIe switch with GPUs 0-2 on node 0");
}

TEST(NumaMisplaced, ConsistentSwitchIsSilent) {
  auto m = on_nodes({0, 0, 1, 1});
  core::LinkMatrix l = pcie_matrix(4, LinkKind::sys);
  l.set_symmetric(0, 1, pcie(LinkKind::pxb));
  l.set_symmetric(2, 3, pcie(LinkKind::pxb));
  m.links = l;
  EXPECT_TRUE(with_code(judge(m), "gpu_numa_misplaced").empty());
}

TEST(NumaMisplaced, GpuAndNicBehindSwitchDisagree) {
  auto m = on_nodes({0, 1});
  m.nics = std::vector<core::Nic>{nic("NIC0", 0, {pcie(LinkKind::pix), pcie(LinkKind::pix)})};
  const auto f = with_code(judge(m), "gpu_numa_misplaced");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].gpus, std::vector<int>{1});
  EXPECT_NE(f[0].message.find("NIC0 (mlx5_0) on node 0"), std::string::npos) << f[0].message;
}

TEST(NumaMisplaced, CpuAffinityAgainstNodeCpus) {
  auto m = on_nodes({0, 1});
  m.gpus[0].cpu_affinity = std::string("0-31,64-95");   // matches node 0
  m.gpus[1].cpu_affinity = std::string("0-31,64-95");   // says node 1 but is pinned to node 0's CPUs
  auto f = with_code(judge(m), "gpu_numa_misplaced");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].gpus, std::vector<int>{1});
  m.gpus[1].cpu_affinity = std::string("0-127");  // every CPU: the driver has no preference
  EXPECT_TRUE(with_code(judge(m), "gpu_numa_misplaced").empty());
  m.gpus[1].cpu_affinity = std::string("garbage");
  EXPECT_TRUE(with_code(judge(m), "gpu_numa_misplaced").empty());
}


TEST(NumaImbalance, FlattenedVmTopologySaysNothingAboutSockets) {
  // 4x A10 VM (real fixture 4x-a10-pcie-sys-2nic.txt): every path SYS on one NUMA node.
  auto m = machine(4, kRtx4090);
  m.links = pcie_matrix(4, core::LinkKind::sys);
  for (auto& g : m.gpus) g.numa_node = 0;
  core::Nic nic0;
  nic0.label = "NIC0";
  nic0.gpu_proximity = std::vector<core::Link>(4, pcie(core::LinkKind::sys));
  m.nics = std::vector<core::Nic>{nic0};
  EXPECT_TRUE(with_code(judge(m), "numa_imbalance").empty());
}

}  // namespace
}  // namespace gpuvet::analysis::testing
