// The simulator's copy physics: healthy rates follow the links, faults change what they should.
#include <gtest/gtest.h>

#include "backends/sim/copy_physics.hpp"

namespace gpuvet::sim {
namespace {

using api::CopyEndpoint;
using api::CopyEngine;
using api::CopyRequest;
using api::CopyStream;

CopyPhysics physics(const std::string& profile, const std::vector<std::string>& faults = {}) {
  std::vector<FaultSpec> specs;
  for (const auto& f : faults) specs.push_back(parse_fault(f).value());
  return CopyPhysics(build_simulation(profile, specs).value());
}

double rate(const CopyPhysics& p, std::vector<CopyStream> streams, CopyEngine engine = CopyEngine::ce) {
  return p.concurrent_rates(CopyRequest{std::move(streams), engine, 1 << 20, 1, {}}).value().front();
}

CopyStream peer(int src, int dst) { return {CopyEndpoint::device(src), CopyEndpoint::device(dst), src}; }

TEST(CopyModel, H100HostCopiesReachMostOfPcieGen5) {
  auto p = physics("hgx-h100-8x");
  const double h2d = rate(p, {{CopyEndpoint::host_memory(0, 0), CopyEndpoint::device(0), 0}});
  EXPECT_NEAR(h2d, 63.0 * 0.86, 1.0);  // Gen5 x16 line 63 GB/s
  const double far = rate(p, {{CopyEndpoint::host_memory(0, 1), CopyEndpoint::device(0), 0}});
  EXPECT_LT(far, h2d * 0.9);
}

TEST(CopyModel, NvswitchPeersAndLinkFaults) {
  auto healthy = physics("hgx-h100-8x");
  EXPECT_NEAR(rate(healthy, {peer(0, 5)}), 450 * 0.86, 2.0);
  auto down = physics("hgx-h100-8x", {"nvlink-down:gpu=5,link=0", "nvlink-down:gpu=5,link=1"});
  EXPECT_NEAR(rate(down, {peer(0, 5)}), 16 * 25 * 0.86, 2.0);
  EXPECT_NEAR(rate(down, {peer(0, 4)}), 450 * 0.86, 2.0);
  auto slow = physics("hgx-h100-8x", {"slow-link:a=1,b=6,factor=0.5"});
  EXPECT_NEAR(rate(slow, {peer(6, 1)}), 450 * 0.86 * 0.5, 2.0);
  EXPECT_NEAR(rate(slow, {peer(6, 2)}), 450 * 0.86, 2.0);
}

TEST(CopyModel, AllToOneSharesTheTargetsNvlinkIngress) {
  auto p = physics("hgx-h100-8x");
  std::vector<CopyStream> streams;
  for (int g = 1; g < 8; ++g) streams.push_back(peer(g, 0));
  const auto rates = p.concurrent_rates(CopyRequest{streams, CopyEngine::ce, 1 << 20, 1, {}}).value();
  double sum = 0;
  for (double r : rates) sum += r;
  EXPECT_NEAR(sum, 450 * 0.86, 2.0);
}

TEST(CopyModel, FourPlusFourTrapHasPciePathsBetweenHalves) {
  auto p = physics("nvlink-4plus4-8x");
  const double nv = rate(p, {peer(0, 1)});
  const double pcie = rate(p, {peer(0, 5)});
  EXPECT_GT(nv, 3 * pcie);  // NV4 pair (100 GB/s line) vs a PCIe Gen4 path across the halves
}

TEST(CopyModel, P2pDisabledStagesThroughHostAndConsumerCardsHaveNoP2p) {
  auto p = physics("hgx-h100-8x", {"p2p-disabled:gpu=3"});
  EXPECT_FALSE(p.peer_access(3, 0));
  EXPECT_TRUE(p.peer_access(1, 0));
  EXPECT_NEAR(rate(p, {peer(3, 0)}), 63.0 * 0.58, 1.0);
  EXPECT_FALSE(physics("rtx4090-8x").peer_access(0, 1));
}

TEST(CopyModel, StragglerSlowsSmCopiesOnly) {
  auto p = physics("hgx-h100-8x", {"straggler:gpu=2,factor=0.5"});
  EXPECT_NEAR(rate(p, {peer(2, 3)}, CopyEngine::sm), 0.5 * rate(p, {peer(2, 3)}, CopyEngine::ce), 1.0);
}

TEST(CopyModel, VramShortAndBad) {
  api::VramRequest request;
  request.gpu = 4;
  auto healthy = physics("hgx-h100-8x").vram_check(request).value();
  EXPECT_GT(*healthy.tested_bytes, *healthy.total_bytes - (2ull << 30));
  EXPECT_TRUE(healthy.miscompares.empty());
  auto short_card = physics("hgx-h100-8x", {"vram-short:gpu=4,gib=40"}).vram_check(request).value();
  EXPECT_LT(*short_card.tested_bytes, 40ull << 30);
  auto bad = physics("hgx-h100-8x", {"vram-bad:gpu=4,offset_gib=10"}).vram_check(request).value();
  ASSERT_FALSE(bad.miscompares.empty());
  EXPECT_EQ(bad.miscompares.front().first_offset, 10ull << 30);
  EXPECT_TRUE(physics("hgx-h100-8x", {"vram-bad:gpu=5,offset_gib=10"}).vram_check(request).value().miscompares.empty());
}

TEST(CopyModel, FaultParametersAreChecked) {
  EXPECT_FALSE(build_simulation("hgx-h100-8x", {parse_fault("vram-short:gpu=1,gib=200").value()}));
  EXPECT_FALSE(build_simulation("hgx-h100-8x", {parse_fault("vram-bad:gpu=1").value()}));
  EXPECT_FALSE(build_simulation("hgx-h100-8x", {parse_fault("p2p-disabled:gpu=9").value()}));
}

}  // namespace
}  // namespace gpuvet::sim
