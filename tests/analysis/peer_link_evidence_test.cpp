// Measured peer bandwidth as evidence of the links (peer_link_evidence.hpp): pairs faster than
// any PCIe link are NVLink, a GPU whose peers take more than any GPU's NVLinks carry reaches them
// through NVSwitch; low numbers prove nothing. Case from nccl#1264: HGX H100, p2pBandwidthLatencyTest
// without a device list, the P2P=Enabled matrix cut after its first row (371-377 GB/s).
#include <gtest/gtest.h>

#include <string>

#include "analysis/judge.hpp"
#include "analysis/peer_link_evidence.hpp"
#include "test_bandwidth.hpp"
#include "test_machines.hpp"

namespace gpuvet::analysis::testing {
namespace {

using core::InterconnectClass;

// n GPUs the log only counts (no names), as machine_from_benchmarks builds them from matrix labels.
core::Machine unnamed(int n) {
  core::Machine m;
  for (int i = 0; i < n; ++i) {
    core::Gpu g;
    g.index = i;
    g.name = core::Reading<std::string>::absent("the log does not list its devices");
    m.gpus.push_back(g);
  }
  return m;
}

core::Assessment judged(const core::Machine& m, const std::vector<core::BandwidthRun>& runs) {
  auto a = judge(m);
  infer_interconnect_from_peer_bandwidth(runs, m, catalog(), a);
  return a;
}

// The P2P=Enabled matrix of a p2p run cut after its first row, as the nccl#1264 paste is.
core::BandwidthRun first_row_only(core::BandwidthRun run) {
  for (auto& mx : run.matrices) {
    if (mx.testcase != "p2p_unidirectional_p2p_enabled") continue;
    mx.values.resize(1);
    mx.row_labels.resize(1);
  }
  return run;
}

TEST(PeerLinkEvidence, PeersFasterThanAnyPcieAndMoreThanAnyGpusNvlinkAreAnNvSwitch) {
  const auto a = judged(unnamed(8), {p2p_run(8, 376, 37)});
  EXPECT_EQ(a.interconnect.cls, InterconnectClass::nvswitch_full_mesh);
  EXPECT_TRUE(a.interconnect.inferred);
  EXPECT_EQ(a.interconnect.reasoning.rfind("inferred from measured peer bandwidth, not observed: ", 0), 0U)
      << a.interconnect.reasoning;
  EXPECT_NE(a.interconnect.reasoning.find("above the 128 GB/s per direction any PCIe link carries"), std::string::npos);
  // 7 peers x 376 GB/s = 2632 GB/s from one GPU, above the 450 of the test catalogue's H100.
  EXPECT_NE(a.interconnect.reasoning.find("7 peers took 2632 GB/s in all"), std::string::npos) << a.interconnect.reasoning;
  EXPECT_FALSE(a.interconnect.gpu_bandwidth_gbps.known());  // no model: no per-GPU rate
  const auto found = with_code(a, "interconnect_class");
  ASSERT_EQ(found.size(), 1U);
  EXPECT_EQ(found[0].evidence[0].second, "nvswitch_full_mesh");
  EXPECT_NE(found[0].message.find("NVSwitch full mesh (inferred from measured peer bandwidth)"), std::string::npos)
      << found[0].message;
}

TEST(PeerLinkEvidence, OneMeasuredRowReachingEveryGpuIsEnough) {
  const auto ev = read_peer_links({first_row_only(p2p_run(8, 376, 37))}, catalog());
  ASSERT_TRUE(ev.has_value());
  EXPECT_EQ(ev->nvlink_pairs.size(), 7U);  // the diagonal is a local copy, not a pair
  EXPECT_EQ(ev->switch_gpu, 0);
  const auto a = judged(unnamed(8), {first_row_only(p2p_run(8, 376, 37))});
  EXPECT_EQ(a.interconnect.cls, InterconnectClass::nvswitch_full_mesh);
  EXPECT_NE(a.interconnect.reasoning.find("copies GPU 0 -> GPUs 1-7 at 376-376 GB/s"), std::string::npos)
      << a.interconnect.reasoning;
}

TEST(PeerLinkEvidence, ANamedModelGivesThePerGpuRate) {
  auto m = machine(8, kH100);
  m.attached_gpus = 16;  // not the whole board listed: the HGX rule does not apply
  const auto a = judged(m, {p2p_run(8, 376, 37)});
  EXPECT_EQ(a.interconnect.cls, InterconnectClass::nvswitch_full_mesh);
  EXPECT_DOUBLE_EQ(a.interconnect.gpu_bandwidth_gbps.value(), 450.0);
}

TEST(PeerLinkEvidence, LowNumbersProveNothing) {
  // 20 GB/s could be PCIe or a degraded NVLink: never "PCIe only" from numbers alone.
  auto a = judged(unnamed(8), {p2p_run(8, 20, 37)});
  EXPECT_EQ(a.interconnect.cls, InterconnectClass::unknown);
  EXPECT_EQ(a.interconnect.reasoning.find("measured peer bandwidth"), std::string::npos);
  // 100 GB/s pairs: within what PCIe 6.0 x16 carries, even though 7 x 100 would exceed some NVLinks.
  a = judged(unnamed(8), {p2p_run(8, 100, 37)});
  EXPECT_EQ(a.interconnect.cls, InterconnectClass::unknown);
  EXPECT_FALSE(read_peer_links({p2p_run(8, 100, 37)}, catalog()).has_value());
}

TEST(PeerLinkEvidence, NvlinkPairsWithoutASwitchAreNamedButNotClassed) {
  // Two GPUs at 200 GB/s: NVLink (a bridge or a board), but 200 GB/s is within one GPU's NVLinks.
  const auto a = judged(unnamed(2), {p2p_run(2, 200, 20)});
  EXPECT_EQ(a.interconnect.cls, InterconnectClass::unknown);
  EXPECT_NE(a.interconnect.reasoning.find("measured peer bandwidth shows"), std::string::npos) << a.interconnect.reasoning;
  EXPECT_NE(a.interconnect.reasoning.find("NVLink, but not the fabric of every GPU pair"), std::string::npos);
}

TEST(PeerLinkEvidence, PairsWithoutP2pAccessAndKnownClassesAreLeftAlone) {
  auto staged = p2p_run(8, 376, 37);
  staged.p2p_access = std::vector<std::vector<bool>>(8, std::vector<bool>(8, false));
  EXPECT_EQ(judged(unnamed(8), {staged}).interconnect.cls, InterconnectClass::unknown);
  // A class the machine picture decided is not overwritten.
  auto pcie = machine(8, kH100);
  pcie.links = pcie_matrix(8, core::LinkKind::sys);
  EXPECT_EQ(judged(pcie, {p2p_run(8, 376, 37)}).interconnect.cls, InterconnectClass::pcie_only);
  // A GPU of the machine that no measured pair reaches: not every GPU is shown on the switch.
  EXPECT_EQ(judged(unnamed(9), {p2p_run(8, 376, 37)}).interconnect.cls, InterconnectClass::unknown);
}

}  // namespace
}  // namespace gpuvet::analysis::testing
