// The whole bench pipeline on simulated machines: profile + faults -> copy backend -> probes ->
// judge. Healthy profiles have no findings; each fault overlay is named on the right GPU or pair.
#include <gtest/gtest.h>

#include <algorithm>

#include "analysis/judge.hpp"
#include "backends/sim/copy_model.hpp"
#include "catalog/gpu_catalog.hpp"
#include "probes/bandwidth_probe.hpp"
#include "probes/vram_probe.hpp"

namespace gpuvet {
namespace {

core::Assessment bench(const std::string& profile, const std::vector<std::string>& faults) {
  std::vector<sim::FaultSpec> specs;
  for (const auto& f : faults) specs.push_back(sim::parse_fault(f).value());
  auto state = sim::build_simulation(profile, specs).value();
  const core::Machine machine = sim::render_machine(state);
  auto backend = sim::make_copy_backend(std::move(state), 7);
  probes::BandwidthOptions options;
  options.samples = 3;
  std::vector<core::BandwidthRun> runs;
  for (auto suite : {probes::BandwidthSuite::host, probes::BandwidthSuite::p2p, probes::BandwidthSuite::memory}) {
    runs.push_back(probes::run_bandwidth_suite(*backend, suite, options).value());
  }
  auto assessment = analysis::judge_machine(machine, catalog::gpu_catalog(), {});
  assessment.findings.clear();
  analysis::judge_bandwidth(runs, machine, catalog::gpu_catalog(), assessment);
  analysis::judge_vram(probes::run_vram_check(*backend, {}).value(), assessment);
  return assessment;
}

std::vector<std::string> codes(const core::Assessment& a) {
  std::vector<std::string> out;
  for (const auto& f : a.findings) out.push_back(f.code + (f.severity == core::Severity::info ? "(info)" : ""));
  return out;
}

const core::Finding* first(const core::Assessment& a, const std::string& code) {
  for (const auto& f : a.findings) {
    if (f.code == code) return &f;
  }
  return nullptr;
}

class HealthyProfile : public testing::TestWithParam<std::string> {};

TEST_P(HealthyProfile, MatchesTheEnvelope) {
  const auto a = bench(GetParam(), {});
  EXPECT_TRUE(a.findings.empty()) << testing::PrintToString(codes(a));
  const auto judged = std::count_if(a.bandwidth.begin(), a.bandwidth.end(), [](const auto& s) { return s.expected_gbps.known(); });
  EXPECT_GE(judged, 4) << "host, peer and memory testcases have an expectation";
}

INSTANTIATE_TEST_SUITE_P(Profiles, HealthyProfile,
                         testing::Values("hgx-h100-8x", "hgx-a100-8x", "l40s-8x", "nvlink-4plus4-8x", "h800-8x", "hgx-h100-4x",
                                         "dgx1-v100", "a100-pcie-4x-bridged"));

TEST(BenchPipeline, GeForceCardsHaveNoP2pAsInfo) {
  const auto a = bench("rtx4090-8x", {});
  EXPECT_EQ(codes(a), (std::vector<std::string>{"p2p_unavailable(info)"}));
}

TEST(BenchPipeline, PcieDegradedNamesTheGpuAndTheCause) {
  const auto a = bench("hgx-h100-8x", {"pcie-degraded:gpu=2,width=8"});
  const auto* f = first(a, "bandwidth_below_expected");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->gpus, std::vector<int>{2});
  EXPECT_EQ(f->severity, core::Severity::fail);
  const auto cause = std::find_if(f->evidence.begin(), f->evidence.end(), [](const auto& e) { return e.first == "likely cause"; });
  ASSERT_NE(cause, f->evidence.end());
  EXPECT_NE(cause->second.find("Gen5 x8"), std::string::npos);
}

TEST(BenchPipeline, NumaMisplacedIsSeenInHostCopies) {
  const auto a = bench("hgx-h100-8x", {"numa-misplaced:gpu=1,node=1"});
  const auto* f = first(a, "host_copy_far_numa_faster");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->gpus, std::vector<int>{1});
}

TEST(BenchPipeline, NvlinkDownNamesThePairsOfTheGpu) {
  const auto a = bench("hgx-h100-8x", {"nvlink-down:gpu=5,link=0", "nvlink-down:gpu=5,link=1", "nvlink-down:gpu=5,link=2",
                                       "nvlink-down:gpu=5,link=3"});
  const auto* f = first(a, "bandwidth_below_expected");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->gpus, (std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7}));
  EXPECT_NE(f->message.find("->5"), std::string::npos);
  EXPECT_EQ(f->message.find("0->1 "), std::string::npos);
}

TEST(BenchPipeline, P2pDisabledNamesTheGpusPairs) {
  const auto a = bench("hgx-h100-8x", {"p2p-disabled:gpu=3"});
  const auto* f = first(a, "p2p_unavailable");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, core::Severity::fail);  // NVSwitch pairs: P2P must work
  EXPECT_EQ(f->gpus, (std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7}));
  EXPECT_NE(f->message.find("3-7"), std::string::npos);
  EXPECT_EQ(f->message.find("0-1"), std::string::npos);
}

TEST(BenchPipeline, SlowLinkNamesThePair) {
  const auto a = bench("hgx-h100-8x", {"slow-link:a=1,b=6,factor=0.5"});
  const auto* f = first(a, "bandwidth_below_expected");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->gpus, (std::vector<int>{1, 6}));
}

TEST(BenchPipeline, VramShortAndVramBad) {
  const auto s = bench("hgx-h100-8x", {"vram-short:gpu=4,gib=60"});
  ASSERT_NE(first(s, "vram_short"), nullptr);
  EXPECT_EQ(first(s, "vram_short")->gpus, std::vector<int>{4});
  const auto b = bench("hgx-h100-8x", {"vram-bad:gpu=6,offset_gib=17.5"});
  ASSERT_NE(first(b, "vram_errors"), nullptr);
  EXPECT_EQ(first(b, "vram_errors")->gpus, std::vector<int>{6});
  EXPECT_NE(first(b, "vram_errors")->message.find("17.50 GiB"), std::string::npos);
}

}  // namespace
}  // namespace gpuvet
