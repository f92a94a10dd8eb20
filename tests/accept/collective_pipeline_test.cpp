// The collective pipeline shared by gpuvet nccl and the accept collective stage, on the
// simulator's collective backend: runs named by the caller, hangs and scaling attribution in
// machine GPU indices, the NVLS setting each run was forced to.
#include <gtest/gtest.h>

#include <algorithm>

#include "accept/collective_pipeline.hpp"
#include "analysis/judge.hpp"
#include "backends/sim/collective_sim_backend.hpp"
#include "backends/sim/sim_state.hpp"
#include "catalog/gpu_catalog.hpp"
#include "core/finding_codes.hpp"

namespace gpuvet::accept {
namespace {

struct Simulated {
  core::Machine machine;
  std::shared_ptr<api::CollectiveBackend> backend;
  probes::OrdinalMap map;
  core::InterconnectSummary interconnect;
};

Simulated simulate(const std::string& profile, const std::vector<std::string>& faults) {
  std::vector<sim::FaultSpec> parsed;
  for (const auto& f : faults) parsed.push_back(sim::parse_fault(f).value());
  auto state = sim::build_simulation(profile, parsed).value();
  Simulated s{sim::render_machine(state), sim::make_collective_backend(state, 1), {}, {}};
  std::vector<int> gpus;
  for (const auto& g : s.machine.gpus) gpus.push_back(g.index);
  s.map = probes::map_ordinals(s.machine, s.backend->devices().value(), gpus, "sim").value();
  s.interconnect = analysis::judge_machine(s.machine, catalog::gpu_catalog(), {}).interconnect;
  return s;
}

std::string named(const probes::CollectiveMeasurement& m, const std::vector<int>& indices) {
  std::string out = "test, GPUs";
  for (int g : indices) out += " " + std::to_string(g);
  return out + (m.nvls ? (*m.nvls ? ", NVLS on" : ", NVLS off") : "");
}

const core::Finding* find(const std::vector<core::Finding>& findings, std::string_view code) {
  const auto it = std::find_if(findings.begin(), findings.end(), [&](const core::Finding& f) { return f.code == code; });
  return it == findings.end() ? nullptr : &*it;
}

probes::CollectiveProbeOptions one_size(std::uint64_t bytes) {
  probes::CollectiveProbeOptions o;
  o.min_bytes = o.max_bytes = bytes;
  o.iterations = 3;
  o.warmup = 0;
  return o;
}

TEST(CollectivePipeline, ASweepIsJudgedUnderTheCallersNameAgainstTheEnvelope) {
  auto s = simulate("hgx-h100-8x", {});
  const CollectiveJudgeContext ctx{s.machine, catalog::gpu_catalog(), s.interconnect, s.map, 120, named};
  auto judged = observe_collective_sweep(*s.backend, {0, 1, 2, 3, 4, 5, 6, 7}, one_size(1ull << 30), ctx).value();
  ASSERT_EQ(judged.observation.sweeps.size(), 1u);
  ASSERT_EQ(judged.judged.collectives.size(), 1u);
  const auto& summary = judged.judged.collectives.front();
  EXPECT_EQ(summary.source, "test, GPUs 0 1 2 3 4 5 6 7");
  ASSERT_TRUE(summary.peak_busbw_gbps);
  ASSERT_TRUE(summary.expected_busbw_gbps);
  EXPECT_EQ(find(judged.judged.findings, core::code::busbw_below_expected), nullptr);
  EXPECT_EQ(find(judged.judged.findings, core::code::collective_hung), nullptr);
}

TEST(CollectivePipeline, AHangIsReportedInMachineIndicesWithTheTimeout) {
  // GPU 6 missing: NVML renumbers the rest, so the machine's GPU 6 is the profile's GPU 7, and
  // the hang on the profile's GPU 7 must be named as machine GPU 6.
  auto s = simulate("hgx-h100-8x", {"gpu-missing:gpu=6", "collective-hang:gpu=7,from_mib=256"});
  const CollectiveJudgeContext ctx{s.machine, catalog::gpu_catalog(), s.interconnect, s.map, 7.5, named};
  auto judged = observe_collective_sweep(*s.backend, {5, 6}, one_size(512ull << 20), ctx).value();
  ASSERT_TRUE(judged.observation.sweeps.front().hang);
  const auto* hung = find(judged.judged.findings, core::code::collective_hung);
  ASSERT_NE(hung, nullptr);
  EXPECT_EQ(hung->severity, core::Severity::fail);
  EXPECT_NE(hung->message.find("GPU 6"), std::string::npos) << hung->message;
  EXPECT_NE(hung->message.find("7.5"), std::string::npos) << hung->message;
}

TEST(CollectivePipeline, ScalingRunsAreAttributedAndNvlsRunsJudgedWithTheirAlgorithm) {
  auto s = simulate("hgx-h100-8x", {"straggler:gpu=3,factor=0.5"});
  CollectiveObservation observation;
  auto nvls_off = one_size(1ull << 30);
  nvls_off.nvls = false;
  auto nvls_on = nvls_off;
  nvls_on.nvls = true;
  for (const auto& o : {nvls_off, nvls_on}) {
    auto runs = probes::sweep_collectives(*s.backend, s.map.ordinals({0, 1, 2, 4, 5, 6, 7}), o);
    ASSERT_TRUE(runs);
    for (const auto& m : *runs) observation.sweeps.push_back(m);
  }
  std::vector<int> all{0, 1, 2, 3, 4, 5, 6, 7};
  observation.scaling.push_back(
      probes::measure_scaling(*s.backend, s.map.ordinals(all), api::CollectiveOp::all_reduce, one_size(1ull << 30)).value());
  EXPECT_EQ(enveloped_algorithms(observation),
            (std::vector<analysis::CollectiveAlgorithm>{analysis::CollectiveAlgorithm::ring, analysis::CollectiveAlgorithm::nvls,
                                                        analysis::CollectiveAlgorithm::nccl_default}));
  const auto runs = enveloped_runs(observation, s.map, named);
  ASSERT_EQ(runs.size(), 3u);
  EXPECT_EQ(runs[1].source, "test, GPUs 0 1 2 4 5 6 7, NVLS on");
  EXPECT_TRUE(runs[0].printed_avg_busbw_gbps);

  const CollectiveJudgeContext ctx{s.machine, catalog::gpu_catalog(), s.interconnect, s.map, 120, named};
  core::Assessment assessment;
  assessment.interconnect = s.interconnect;
  judge_collective_observation(observation, ctx, assessment);
  ASSERT_EQ(assessment.collectives.size(), 3u);
  // NVLS on is held to its own (higher) envelope than NVLS off on the same GPUs.
  ASSERT_TRUE(assessment.collectives[0].expected_busbw_gbps && assessment.collectives[1].expected_busbw_gbps);
  EXPECT_GT(*assessment.collectives[1].expected_busbw_gbps, *assessment.collectives[0].expected_busbw_gbps);
  const auto* straggler = find(assessment.findings, core::code::straggler_gpu);
  ASSERT_NE(straggler, nullptr);
  EXPECT_NE(straggler->message.find("GPU 3"), std::string::npos) << straggler->message;
}

}  // namespace
}  // namespace gpuvet::accept
