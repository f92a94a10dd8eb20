// PCIe links below capability and NVLink links down (ports and NV# counts).
#include <gtest/gtest.h>

#include "test_machines.hpp"

namespace gpuvet::analysis::testing {
namespace {

using core::LinkKind;
using core::Severity;

std::vector<core::NvLinkPort> ports(int count, int inactive_from) {
  std::vector<core::NvLinkPort> out;
  for (int i = 0; i < count; ++i) {
    core::NvLinkPort p;
    p.link = i;
    p.active = i < inactive_from;
    out.push_back(p);
  }
  return out;
}

TEST(PcieDegraded, NarrowLinkFails) {
  auto m = machine(2, kH100);
  m.gpus[1].pcie = {5, 5, 8, 16};
  const auto f = with_code(judge(m), "pcie_link_degraded");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].severity, Severity::fail);
  EXPECT_EQ(f[0].gpus, std::vector<int>{1});
  EXPECT_EQ(f[0].message, "GPU 1 PCIe link runs at x8 of x16 lanes");
}

TEST(PcieDegraded, GenerationOnlyJudgedWhenBusy) {
  auto m = machine(1, kH100);
  m.gpus[0].pcie = {1, 5, 16, 16};
  EXPECT_TRUE(with_code(judge(m), "pcie_link_degraded").empty());  // idle unknown
  m.gpus[0].idle = true;
  EXPECT_TRUE(with_code(judge(m), "pcie_link_degraded").empty());
  // Idle "Not Active" alone is not busy: an A40 in P8 reports it with SW Power Cap active.
  m.gpus[0].idle = false;
  m.gpus[0].clocks_event_reasons = std::vector<std::string>{"SW Power Cap"};
  EXPECT_TRUE(with_code(judge(m), "pcie_link_degraded").empty());
  m.gpus[0].performance_state = std::string("P8");
  EXPECT_TRUE(with_code(judge(m), "pcie_link_degraded").empty());
  m.gpus[0].performance_state = std::string("P0");
  auto f = with_code(judge(m), "pcie_link_degraded");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].message, "GPU 0 PCIe link runs at Gen1 of Gen5 while busy");
  m.gpus[0].performance_state = core::Reading<std::string>::absent("not reported");
  m.gpus[0].clocks_event_reasons = std::vector<std::string>{};  // not idle, nothing holding clocks back
  EXPECT_EQ(with_code(judge(m), "pcie_link_degraded").size(), 1u);
}

TEST(NvLinkDown, Nv17AmongNv18NamesTheGpu) {
  auto m = machine(8, kH100);
  m.links = nv_mesh(8, 18);
  for (int b = 0; b < 8; ++b) {
    if (b != 3) m.links.value().set_symmetric(3, b, nv(17));
  }
  const auto a = judge(m);
  EXPECT_EQ(a.interconnect.cls, core::InterconnectClass::nvswitch_full_mesh);
  EXPECT_DOUBLE_EQ(a.interconnect.gpu_bandwidth_gbps.value(), 425.0);  // the slowest GPU
  const auto f = with_code(a, "nvlink_down");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].severity, Severity::fail);
  EXPECT_EQ(f[0].gpus, std::vector<int>{3});
  EXPECT_EQ(f[0].message, "GPU 3 has NV17 to its peers where the other GPUs have NV18: 1 NVLink is down");
}

TEST(NvLinkDown, WeakPairInDirectMeshNamesThePair) {
  auto m = machine(4, kH100);
  m.links = nv_mesh(4, 6);
  m.links.value().set_symmetric(1, 2, nv(5));
  const auto f = with_code(judge(m), "nvlink_down");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].gpus, (std::vector<int>{1, 2}));
}

TEST(NvLinkDown, UniformMeshesAndDesignedPartialsAreSilent) {
  auto m = machine(8, kH100);
  m.links = nv_mesh(8, 18);
  EXPECT_TRUE(with_code(judge(m), "nvlink_down").empty());
  auto cube = machine(4, kV100);  // hybrid cube mesh: NV1 and NV2 by design
  core::LinkMatrix l = nv_mesh(4, 2);
  l.set_symmetric(0, 1, nv(1));
  l.set_symmetric(0, 3, pcie(LinkKind::sys));
  cube.links = l;
  EXPECT_TRUE(with_code(judge(cube), "nvlink_down").empty());
}

TEST(NvLinkDown, SxmGpuWithNoNvLinkInPartialMachine) {
  auto m = machine(4, kH100);
  core::LinkMatrix l = nv_mesh(4, 6);
  for (int b = 0; b < 3; ++b) l.set_symmetric(3, b, pcie(LinkKind::sys));
  m.links = l;
  const auto f = with_code(judge(m), "nvlink_down");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].gpus, std::vector<int>{3});
}

TEST(NvLinkDown, InactiveSxmPortFailsNamingLink) {
  auto m = machine(2, kH100);
  m.gpus[0].nvlinks = ports(18, 18);
  m.gpus[1].nvlinks = ports(18, 17);
  const auto f = with_code(judge(m), "nvlink_down");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].gpus, std::vector<int>{1});
  EXPECT_EQ(f[0].message, "GPU 1 has NVLink link 17 inactive: 17 of 18 links up");
}

TEST(NvLinkDown, SxmGpuWithNoActivePortsFails) {
  auto m = machine(2, kH100);
  m.gpus[0].nvlinks = ports(18, 18);
  m.gpus[1].nvlinks = std::vector<core::NvLinkPort>{};  // NVML: "all links are inActive"
  const auto f = with_code(judge(m), "nvlink_down");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].severity, Severity::fail);
  EXPECT_EQ(f[0].message, "GPU 1 has no active NVLink: 0 of 18 links up");
}

TEST(NvLinkDown, ExtraListedPortsBeyondModelAreNotFaults) {
  auto m = machine(1, kV100);
  m.gpus[0].nvlinks = ports(8, 6);  // 6 links wired, 8 listed
  EXPECT_TRUE(with_code(judge(m), "nvlink_down").empty());
}

TEST(NvLinkDown, BridgedCardWithoutBridgeIsInfo) {
  auto m = machine(3, kA6000);
  m.gpus[0].nvlinks = ports(4, 4);
  m.gpus[1].nvlinks = ports(4, 4);
  m.gpus[2].nvlinks = std::vector<core::NvLinkPort>{};  // as nvidia-smi nvlink -s reports it
  const auto a = judge(m);
  EXPECT_EQ(a.interconnect.cls, core::InterconnectClass::nvlink_partial);
  EXPECT_EQ(a.interconnect.headline, "3x RTX A6000: NVLink on GPU0,1 only, the rest over PCIe (31.5 GB/s)");
  const auto f = with_code(a, "nvlink_not_bridged");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].severity, Severity::info);
  EXPECT_EQ(f[0].gpus, std::vector<int>{2});
  EXPECT_NE(f[0].message.find("no NVLink bridge fitted"), std::string::npos);
}

TEST(NvLinkDown, BridgedCardWithHalfTheLinksFails) {
  auto m = machine(2, kA6000);
  m.gpus[0].nvlinks = ports(4, 4);
  m.gpus[1].nvlinks = ports(4, 2);
  const auto f = with_code(judge(m), "nvlink_down");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].severity, Severity::fail);
  EXPECT_EQ(f[0].gpus, std::vector<int>{1});
}

TEST(NvLinkDown, PortsAndMatrixDoNotReportTheSameGpuTwice) {
  auto m = machine(8, kH100);
  m.links = nv_mesh(8, 18);
  for (int b = 0; b < 8; ++b) {
    if (b != 3) m.links.value().set_symmetric(3, b, nv(17));
  }
  m.gpus[3].nvlinks = ports(18, 17);
  const auto f = with_code(judge(m), "nvlink_down");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_NE(f[0].message.find("link 17"), std::string::npos);
}

TEST(NvLinkDown, UniformShortfallAgainstTheCatalogueFails) {
  // Every pair NV6 on an 8x H100 NVSwitch board: no odd GPU out, but 12 of 18 links are missing.
  auto m = machine(8, kH100);
  m.links = nv_mesh(8, 6);
  m.nvswitch_present = true;
  const auto f = with_code(judge(m), "nvlink_down");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].severity, Severity::fail);
  EXPECT_EQ(f[0].gpus.size(), 8u);
  EXPECT_NE(f[0].message.find("6 NVLinks where the model has 18"), std::string::npos) << f[0].message;
  // The healthy board and a direct mesh that adds up (4x NV6 = 18 per GPU) stay silent.
  auto healthy = machine(8, kH100);
  healthy.links = nv_mesh(8, 18);
  EXPECT_TRUE(with_code(judge(healthy), "nvlink_down").empty());
  auto direct = machine(4, kH100);
  direct.links = nv_mesh(4, 6);
  EXPECT_TRUE(with_code(judge(direct), "nvlink_down").empty());
}


TEST(FabricNotReady, StateOtherThanCompletedFailsNamingTheGpu) {
  auto m = machine(8, kH100);
  m.links = nv_mesh(8, 18);
  for (auto& g : m.gpus) g.fabric_state = std::string("Completed");
  EXPECT_TRUE(with_code(judge(m), "fabric_not_ready").empty());
  m.gpus[6].fabric_state = std::string("In Progress");
  const auto f = with_code(judge(m), "fabric_not_ready");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].severity, Severity::fail);
  EXPECT_EQ(f[0].gpus, std::vector<int>{6});
}

}  // namespace
}  // namespace gpuvet::analysis::testing
