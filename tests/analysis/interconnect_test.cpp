// Interconnect classification and the claim check, from topo -m matrices and from nvidia-smi -q
// alone.
#include <gtest/gtest.h>

#include "test_machines.hpp"

namespace gpuvet::analysis::testing {
namespace {

using core::InterconnectClass;
using core::LinkKind;

const core::Finding& only(const core::Assessment& a, const std::string& code) {
  static const core::Finding kNone{};
  const auto found = with_code(a, code);
  EXPECT_EQ(found.size(), 1u) << code;
  for (const auto& f : a.findings) {
    if (f.code == code) return f;
  }
  return kNone;
}

TEST(Interconnect, EightH100Nv18IsNvSwitchAt450) {
  auto m = machine(8, kH100);
  m.links = nv_mesh(8, 18);
  const auto s = classify_interconnect(m, catalog());
  EXPECT_EQ(s.cls, InterconnectClass::nvswitch_full_mesh);
  ASSERT_TRUE(s.gpu_bandwidth_gbps.known());
  EXPECT_DOUBLE_EQ(*s.gpu_bandwidth_gbps, 450.0);
  EXPECT_EQ(s.headline, "8x H100 SXM5 80GB, NVSwitch full mesh: 450 GB/s per GPU per direction");
  EXPECT_NE(s.reasoning.find("126 NVLinks"), std::string::npos) << s.reasoning;

  const auto a = judge(m);
  EXPECT_EQ(codes(a), std::vector<std::string>{"interconnect_class"});
  const auto& f = only(a, "interconnect_class");
  EXPECT_EQ(f.severity, core::Severity::info);
  EXPECT_EQ(f.gpus.size(), 8u);
  EXPECT_EQ(f.message, s.headline);
}

TEST(Interconnect, EightA100Nv12NeedsSwitch) {
  auto m = machine(8, kA100Sxm);
  m.links = nv_mesh(8, 12);
  const auto s = classify_interconnect(m, catalog());
  EXPECT_EQ(s.cls, InterconnectClass::nvswitch_full_mesh);
  EXPECT_DOUBLE_EQ(s.gpu_bandwidth_gbps.value(), 300.0);
}

TEST(Interconnect, FourH100Nv6IsDirectMesh) {
  auto m = machine(4, kH100);
  m.links = nv_mesh(4, 6);
  const auto s = classify_interconnect(m, catalog());
  EXPECT_EQ(s.cls, InterconnectClass::nvlink_direct_full_mesh);
  EXPECT_DOUBLE_EQ(s.gpu_bandwidth_gbps.value(), 150.0);
  EXPECT_EQ(s.headline, "4x H100 SXM5 80GB, NVLink direct full mesh: NV6 = 150 GB/s per GPU pair per direction");
}

TEST(Interconnect, ReportedNvSwitchOverridesLinkCount) {
  auto m = machine(4, kH100);
  m.links = nv_mesh(4, 6);
  m.nvswitch_present = true;
  EXPECT_EQ(classify_interconnect(m, catalog()).cls, InterconnectClass::nvswitch_full_mesh);
}

TEST(Interconnect, UnknownModelUsesEighteenLinkLimit) {
  auto m = machine(8, kUnknownGpu);
  m.links = nv_mesh(8, 8);  // 56 links per GPU: only through NVSwitch
  auto s = classify_interconnect(m, catalog());
  EXPECT_EQ(s.cls, InterconnectClass::nvswitch_full_mesh);
  EXPECT_FALSE(s.gpu_bandwidth_gbps.known());  // no per-link rate for an unknown model
  // The link count still bounds it: 8 links at NVLink 2-4's 25 GB/s, or NVLink 5's 50.
  EXPECT_NE(s.headline.find("8 NVLinks per GPU: 200 GB/s"), std::string::npos) << s.headline;
  EXPECT_NE(s.headline.find("not in the catalogue"), std::string::npos) << s.headline;

  auto two = machine(2, kUnknownGpu);
  two.links = nv_mesh(2, 12);
  EXPECT_EQ(classify_interconnect(two, catalog()).cls, InterconnectClass::nvlink_direct_full_mesh);
}

TEST(Interconnect, PortSpeedGivesRateForUnknownModel) {
  auto m = machine(2, kUnknownGpu);
  m.links = nv_mesh(2, 4);
  core::NvLinkPort port;
  port.active = true;
  port.speed_gbps = 20.0;
  for (auto& g : m.gpus) g.nvlinks = std::vector<core::NvLinkPort>{port};
  EXPECT_DOUBLE_EQ(classify_interconnect(m, catalog()).gpu_bandwidth_gbps.value(), 80.0);
}

TEST(Interconnect, BridgedPairOfThreeIsPartial) {
  auto m = machine(3, kA6000);
  core::LinkMatrix l = pcie_matrix(3, LinkKind::node);
  l.set_symmetric(0, 1, nv(4));
  m.links = l;
  const auto s = classify_interconnect(m, catalog());
  EXPECT_EQ(s.cls, InterconnectClass::nvlink_partial);
  EXPECT_NEAR(s.gpu_bandwidth_gbps.value(), 31.5, 0.01);  // slowest path: PCIe Gen4 x16
  EXPECT_EQ(s.headline, "3x RTX A6000: NVLink only within GPU0,1, the rest over PCIe (31.5 GB/s)");
}

TEST(Interconnect, HybridCubeMeshIsPartialNotMesh) {
  auto m = machine(4, kV100);
  core::LinkMatrix l = nv_mesh(4, 2);
  l.set_symmetric(0, 3, pcie(LinkKind::sys));
  m.links = l;
  const auto s = classify_interconnect(m, catalog());
  EXPECT_EQ(s.cls, InterconnectClass::nvlink_partial);
  EXPECT_NE(s.headline.find("NVLink on 5 of 6 GPU pairs"), std::string::npos) << s.headline;
  EXPECT_NEAR(s.gpu_bandwidth_gbps.value(), 15.76, 0.01);  // PCIe Gen3 x16 between GPU 0 and 3
}

TEST(Interconnect, PcieOnlyMachine) {
  auto m = machine(8, kRtx4090);
  m.links = pcie_matrix(8, LinkKind::sys);
  for (auto& g : m.gpus) g.pcie = {1, 4, 16, 16};  // idle link at Gen1: the slot's max is what counts
  const auto s = classify_interconnect(m, catalog());
  EXPECT_EQ(s.cls, InterconnectClass::pcie_only);
  EXPECT_NEAR(s.gpu_bandwidth_gbps.value(), 31.5, 0.01);
  EXPECT_EQ(s.headline, "8x RTX 4090, PCIe only: 31.5 GB/s per GPU per direction (Gen4 x16)");
}

TEST(Interconnect, FourNvLinkPlusFourPcieIsPartialAndMixed) {
  auto m = machine(8, kA100Sxm);
  core::LinkMatrix l = pcie_matrix(8, LinkKind::sys);
  for (int a = 0; a < 4; ++a) {
    for (int b = a + 1; b < 4; ++b) l.set_symmetric(a, b, nv(4));
  }
  m.links = l;
  for (int i = 4; i < 8; ++i) m.gpus[static_cast<size_t>(i)].name = kA100Pcie;
  const auto a = judge(m);
  EXPECT_EQ(a.interconnect.cls, InterconnectClass::nvlink_partial);
  EXPECT_EQ(a.interconnect.headline,
            "4x A100 SXM4 80GB + 4x A100 PCIe 80GB: NVLink only within GPU0-3, the rest over PCIe (31.5 GB/s)");
  const auto mixed = with_code(a, "mixed_inventory");
  ASSERT_EQ(mixed.size(), 1u);
  EXPECT_EQ(mixed[0].severity, core::Severity::fail);
  // An even split names both groups.
  EXPECT_NE(mixed[0].message.find("NVIDIA A100 80GB PCIe on GPUs 4-7"), std::string::npos) << mixed[0].message;
  EXPECT_NE(mixed[0].message.find("on GPUs 0-3"), std::string::npos) << mixed[0].message;
}

TEST(Interconnect, ClaimOfNvSwitchOnPartialFails) {
  auto m = machine(3, kA6000);
  core::LinkMatrix l = pcie_matrix(3, LinkKind::node);
  l.set_symmetric(0, 1, nv(4));
  m.links = l;
  Expectations e;
  e.interconnect = InterconnectClass::nvswitch_full_mesh;
  const auto a = judge(m, e);
  const auto& f = only(a, "interconnect_not_as_claimed");
  EXPECT_EQ(f.severity, core::Severity::fail);
  EXPECT_NE(f.message.find("Expected an NVSwitch full mesh, found partial NVLink"), std::string::npos) << f.message;
}

TEST(Interconnect, AnyNvLinkClaimAcceptsBothMeshes) {
  Expectations e;
  ASSERT_TRUE(core::parse_interconnect_claim("nvlink", e.interconnect.emplace(), e.interconnect_any_nvlink_mesh));
  auto direct = machine(4, kH100);
  direct.links = nv_mesh(4, 6);
  EXPECT_TRUE(with_code(judge(direct, e), "interconnect_not_as_claimed").empty());
  auto sw = machine(8, kH100);
  sw.links = nv_mesh(8, 18);
  EXPECT_TRUE(with_code(judge(sw, e), "interconnect_not_as_claimed").empty());
  auto pcie_box = machine(2, kRtx4090);
  pcie_box.links = pcie_matrix(2, LinkKind::phb);
  EXPECT_EQ(with_code(judge(pcie_box, e), "interconnect_not_as_claimed").size(), 1u);
}

TEST(Interconnect, ExactClaimMatchesOrFails) {
  auto sw = machine(8, kH100);
  sw.links = nv_mesh(8, 18);
  Expectations e;
  e.interconnect = InterconnectClass::nvswitch_full_mesh;
  EXPECT_TRUE(with_code(judge(sw, e), "interconnect_not_as_claimed").empty());
  e.interconnect = InterconnectClass::pcie_only;
  EXPECT_EQ(with_code(judge(sw, e), "interconnect_not_as_claimed").size(), 1u);
}

TEST(Interconnect, UnknownClassIsNotComparedWithClaim) {
  auto m = machine(2, kH100Nvl);  // bridged NVLink model, no matrix: cannot tell
  Expectations e;
  e.interconnect = InterconnectClass::nvswitch_full_mesh;
  const auto a = judge(m, e);
  EXPECT_EQ(a.interconnect.cls, InterconnectClass::unknown);
  EXPECT_NE(a.interconnect.reasoning.find("no topo -m link matrix"), std::string::npos) << a.interconnect.reasoning;
  EXPECT_TRUE(with_code(a, "interconnect_not_as_claimed").empty());
}

TEST(InterconnectWithoutMatrix, ModelsWithoutNvLinkArePcieOnly) {
  auto m = machine(8, kRtx4090);
  const auto s = classify_interconnect(m, catalog());
  EXPECT_EQ(s.cls, InterconnectClass::pcie_only);
  EXPECT_NEAR(s.gpu_bandwidth_gbps.value(), 31.5, 0.01);  // catalogue Gen4 x16
}

TEST(InterconnectWithoutMatrix, FabricCompletedMeansNvSwitch) {
  auto m = machine(8, kH100);
  for (auto& g : m.gpus) g.fabric_state = std::string("Completed");
  const auto s = classify_interconnect(m, catalog());
  EXPECT_EQ(s.cls, InterconnectClass::nvswitch_full_mesh);
  EXPECT_DOUBLE_EQ(s.gpu_bandwidth_gbps.value(), 450.0);
  m.gpus[3].fabric_state = std::string("In Progress");
  const auto partial = classify_interconnect(m, catalog());
  EXPECT_EQ(partial.cls, InterconnectClass::unknown);
  EXPECT_NE(partial.reasoning.find("not Completed"), std::string::npos) << partial.reasoning;
}

TEST(InterconnectWithoutMatrix, FourA100SxmIsInferredDirectMesh) {
  auto m = machine(4, kA100Sxm);
  for (auto& g : m.gpus) g.fabric_state = std::string("N/A");
  const auto s = classify_interconnect(m, catalog());
  EXPECT_EQ(s.cls, InterconnectClass::nvlink_direct_full_mesh);
  EXPECT_NE(s.reasoning.find("inferred"), std::string::npos);
  EXPECT_DOUBLE_EQ(s.gpu_bandwidth_gbps.value(), 100.0);  // 12 links / 3 peers = NV4 x 25
}

TEST(InterconnectWithoutMatrix, EightA100SxmIsInferredNvswitch) {
  auto m = machine(8, kA100Sxm);
  const auto s = classify_interconnect(m, catalog());
  EXPECT_EQ(s.cls, InterconnectClass::nvswitch_full_mesh);
  EXPECT_TRUE(s.inferred);
  EXPECT_NE(s.reasoning.find("inferred, not observed: 8 "), std::string::npos) << s.reasoning;
  EXPECT_DOUBLE_EQ(s.gpu_bandwidth_gbps.value(), 300.0);  // 12 links x 25 GB/s
  // A DGX-1's eight V100s are a hybrid cube mesh: nothing is inferred.
  EXPECT_EQ(classify_interconnect(machine(8, kV100), catalog()).cls, InterconnectClass::unknown);
  // Eight of sixteen attached, or a fabric state that is reported but not Completed: not inferred.
  m.attached_gpus = 16;
  EXPECT_EQ(classify_interconnect(m, catalog()).cls, InterconnectClass::unknown);
}

TEST(InterconnectWithoutMatrix, PartialListingIsNotInferred) {
  auto m = machine(4, kA100Sxm);
  m.attached_gpus = 8;
  EXPECT_EQ(classify_interconnect(m, catalog()).cls, InterconnectClass::unknown);
  auto v100 = machine(4, kV100);  // not an A100/H100 HGX board
  EXPECT_EQ(classify_interconnect(v100, catalog()).cls, InterconnectClass::unknown);
}

TEST(InterconnectWithoutMatrix, AllPortsInactiveIsPcieOnly) {
  auto m = machine(2, kA6000);
  core::NvLinkPort port;
  port.active = false;
  for (auto& g : m.gpus) g.nvlinks = std::vector<core::NvLinkPort>{port, port, port, port};
  EXPECT_EQ(classify_interconnect(m, catalog()).cls, InterconnectClass::pcie_only);
}

TEST(Interconnect, EverythingAbsentYieldsOnlyUnknownClass) {
  core::Machine m;
  m.gpus.resize(2);
  m.gpus[1].index = 1;
  const auto a = judge(m);
  ASSERT_EQ(codes(a), std::vector<std::string>{"interconnect_class"});
  EXPECT_EQ(a.interconnect.cls, InterconnectClass::unknown);
  EXPECT_FALSE(a.interconnect.gpu_bandwidth_gbps.known());
  EXPECT_EQ(a.findings[0].evidence[0].second, "unknown");
}

TEST(Interconnect, EmptyMachineHasNoFindings) {
  const core::Machine m;
  const auto a = judge(m);
  EXPECT_TRUE(a.findings.empty());
  EXPECT_EQ(a.interconnect.cls, InterconnectClass::unknown);
  EXPECT_EQ(a.interconnect.headline, "interconnect unknown: no GPUs reported");
}

}  // namespace
}  // namespace gpuvet::analysis::testing
