// The collectives and burn-in stages of accept on simulated machines: clean machines pass, a
// planted straggler, slow link, growing NVLink errors, throttling or lost GPU fails the right
// clause with the finding that names it, and what cannot be decided stays not run.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>

#include "accept/burnin_stage.hpp"
#include "accept/collective_stage.hpp"
#include "accept_test_support.hpp"
#include "backends/sim/burnin_sim_backends.hpp"
#include "backends/sim/collective_sim_backend.hpp"
#include "backends/sim/sim_state.hpp"

namespace gpuvet::accept::testing {
namespace {

const std::string kCollectives =
    "collectives:\n  all_reduce: {2: auto, 4: auto, all: auto}\n  all_gather: {all: auto}\n  scaling_efficiency: 0.8\n";

std::vector<sim::FaultSpec> parsed(const std::vector<std::string>& texts) {
  std::vector<sim::FaultSpec> out;
  for (const auto& t : texts) out.push_back(sim::parse_fault(t).value());
  return out;
}

StageProviders collectives(const std::string& profile, const std::vector<std::string>& faults, bool quick = false) {
  auto state = sim::build_simulation(profile, parsed(faults));
  EXPECT_TRUE(state.ok());
  StageProviders p;
  p.collectives = make_collectives_stage(sim::make_collective_backend(*state, 1), {quick});
  return p;
}

StageProviders burnin(const std::string& profile, const std::vector<std::string>& faults,
                      const std::atomic<bool>* cancel = nullptr) {
  auto simulated = sim::make_sim_burnin(profile, parsed(faults), 1, "bf16");
  EXPECT_TRUE(simulated.ok());
  BurninStageSetup setup;
  setup.telemetry = std::move(simulated.value().telemetry);
  setup.stress = std::move(simulated.value().stress);
  setup.traffic = std::move(simulated.value().traffic);
  setup.clock = std::make_unique<platform::ManualClock>(0);
  setup.wall = std::make_unique<platform::SteadyClock>();
  setup.db_path = [] { return core::Result<std::string>(std::string(":memory:")); };
  setup.run.source = "simulated: " + profile;
  setup.run.simulated = true;
  setup.cancel = cancel;
  StageProviders p;
  p.burnin = make_burnin_stage(std::move(setup));
  return p;
}

std::string soak(const std::string& tolerances = "") {
  return "burnin:\n  duration: 1h\n" + tolerances;
}

bool names(const ClauseResult& c, const std::string& code) {
  return std::find(c.findings.begin(), c.findings.end(), code) != c.findings.end();
}

TEST(AcceptCollectives, CleanProfilesPassAtTheirEnvelope) {
  for (const char* profile : {"hgx-h100-8x", "hgx-a100-8x", "h800-8x"}) {
    auto out = run_on_sim(profile, {}, gates_only(profile) + kCollectives, collectives(profile, {}));
    for (const auto& c : out.stages[6].clauses) EXPECT_EQ(c.status, ClauseStatus::pass) << profile << " " << c.id << ": " << c.reason;
    const auto& all = out.clause("collectives.all_reduce.all");
    ASSERT_TRUE(all.measured && all.target) << profile;
    EXPECT_GE(*all.measured, 0.8 * *all.target) << profile;
  }
}

TEST(AcceptCollectives, PlantedStragglerIsNamedInTheFailingClauses) {
  auto out = run_on_sim("hgx-h100-8x", {"straggler:gpu=3,factor=0.7"}, gates_only("hgx-h100-8x") + kCollectives,
                        collectives("hgx-h100-8x", {"straggler:gpu=3,factor=0.7"}));
  EXPECT_EQ(out.verdict, core::Verdict::fail);
  const auto& all = out.clause("collectives.all_reduce.all");
  EXPECT_EQ(all.status, ClauseStatus::fail);
  EXPECT_TRUE(names(all, "straggler_gpu")) << all.reason;
  EXPECT_EQ(all.reason.rfind("GPU 3 ", 0), 0u) << "the GPU to blame comes first: " << all.reason;
}

TEST(AcceptCollectives, SlowLinkFailsThePairClauseAndNamesThePair) {
  auto out = run_on_sim("hgx-h100-8x", {"slow-link:a=1,b=5,factor=0.5"}, gates_only("hgx-h100-8x") + kCollectives,
                        collectives("hgx-h100-8x", {"slow-link:a=1,b=5,factor=0.5"}));
  const auto& pairs = out.clause("collectives.all_reduce.2");
  EXPECT_EQ(pairs.status, ClauseStatus::fail);
  EXPECT_TRUE(names(pairs, "slow_link")) << pairs.reason;
  EXPECT_NE(pairs.observed.find("GPUs 1,5"), std::string::npos) << pairs.observed;
}

TEST(AcceptCollectives, FourPlusFourTrapFailsScaling) {
  const std::string spec = gates_only("hgx-a100-8x") + "collectives:\n  all_reduce: {all: 100}\n  scaling_efficiency: 0.8\n";
  auto out = run_on_sim("nvlink-4plus4-8x", {}, spec, collectives("nvlink-4plus4-8x", {}));
  EXPECT_EQ(out.clause("collectives.scaling").status, ClauseStatus::fail) << out.clause("collectives.scaling").observed;
  EXPECT_EQ(out.clause("collectives.all_reduce.all").status, ClauseStatus::fail);
  EXPECT_NE(out.clause("collectives.all_reduce.all").reason.find("below the floor of 100 GB/s"), std::string::npos);
}

TEST(AcceptCollectives, ClausesItCannotDecideStayNotRun) {
  const std::string spec = gates_only("hgx-h100-8x") + "collectives:\n  all_reduce: {16: 100, 3: 100, all: auto}\n";
  auto out = run_on_sim("hgx-h100-8x", {}, spec, collectives("hgx-h100-8x", {}));
  EXPECT_EQ(out.clause("collectives.all_reduce.16").status, ClauseStatus::not_run);
  EXPECT_NE(out.clause("collectives.all_reduce.16").reason.find("8 GPUs"), std::string::npos);
  EXPECT_EQ(out.clause("collectives.all_reduce.3").status, ClauseStatus::not_run);
  EXPECT_EQ(out.clause("collectives.all_reduce.all").status, ClauseStatus::pass);
  EXPECT_EQ(out.verdict, core::Verdict::incomplete);
}

TEST(AcceptCollectives, QuickMeasuresDisjointSetsOnly) {
  auto out = run_on_sim("hgx-h100-8x", {}, gates_only("hgx-h100-8x") + kCollectives, collectives("hgx-h100-8x", {}, true));
  EXPECT_NE(out.clause("collectives.all_reduce.2").observed.find("4 sets"), std::string::npos)
      << out.clause("collectives.all_reduce.2").observed;
  EXPECT_EQ(out.verdict, core::Verdict::pass);
}

// The simulator's collectives, with wrong elements reported on every run over all GPUs.
class WrongOnAllGpus final : public api::CollectiveBackend {
 public:
  explicit WrongOnAllGpus(std::unique_ptr<api::CollectiveBackend> inner, std::size_t all) : inner_(std::move(inner)), all_(all) {}
  [[nodiscard]] std::string describe() const override { return inner_->describe(); }
  [[nodiscard]] bool simulated() const override { return true; }
  core::Result<std::vector<api::DeviceInfo>> devices() override { return inner_->devices(); }
  core::Result<std::uint64_t> memory_per_gpu() override { return inner_->memory_per_gpu(); }
  core::Result<api::CollectiveSample> run(const api::CollectiveRequest& r) override {
    auto sample = inner_->run(r);
    if (sample && r.gpus.size() == all_) sample.value().wrong = 5;
    return sample;
  }

 private:
  std::unique_ptr<api::CollectiveBackend> inner_;
  std::size_t all_;
};

TEST(AcceptCollectives, WrongResultsFailTheScalingClauseToo) {
  auto state = sim::build_simulation("hgx-h100-4x", {});
  ASSERT_TRUE(state.ok());
  StageProviders p;
  p.collectives = make_collectives_stage(std::make_shared<WrongOnAllGpus>(sim::make_collective_backend(*state, 1), 4), {});
  auto out = run_on_sim("hgx-h100-4x", {}, gates_only("hgx-h100-4x") + "collectives:\n  scaling_efficiency: 0.8\n", std::move(p));
  const auto& c = out.clause("collectives.scaling");
  EXPECT_EQ(c.status, ClauseStatus::fail) << c.observed;
  EXPECT_TRUE(names(c, "collective_wrong_results")) << c.reason;
}

TEST(AcceptCollectives, AHungCollectiveFailsItsClauseAndStopsTheRest) {
  const std::vector<std::string> fault{"collective-hang:gpu=2,from_mib=1024"};
  auto out = run_on_sim("hgx-h100-8x", fault, gates_only("hgx-h100-8x") + kCollectives, collectives("hgx-h100-8x", fault));
  const auto& pairs = out.clause("collectives.all_reduce.2");
  EXPECT_EQ(pairs.status, ClauseStatus::fail);
  EXPECT_TRUE(names(pairs, "collective_hung")) << pairs.reason;
  EXPECT_NE(pairs.reason.find("GPU 2 had not finished"), std::string::npos) << pairs.reason;
  const auto& all = out.clause("collectives.all_reduce.all");
  EXPECT_EQ(all.status, ClauseStatus::not_run);
  EXPECT_NE(all.reason.find("measuring stopped after all_reduce hung"), std::string::npos) << all.reason;
}

TEST(AcceptCollectives, CorruptResultsFailEveryClauseTheGpuTakesPartIn) {
  const std::vector<std::string> fault{"collective-corrupt:gpu=5"};
  auto out = run_on_sim("hgx-h100-8x", fault, gates_only("hgx-h100-8x") + kCollectives, collectives("hgx-h100-8x", fault));
  for (const char* id : {"collectives.all_reduce.2", "collectives.all_reduce.all", "collectives.scaling"}) {
    EXPECT_EQ(out.clause(id).status, ClauseStatus::fail) << id;
    EXPECT_TRUE(names(out.clause(id), "collective_wrong_results")) << id << ": " << out.clause(id).reason;
  }
}

TEST(AcceptBurnin, CleanSoakPasses) {
  auto out = run_on_sim("hgx-h100-8x", {}, gates_only("hgx-h100-8x") + soak(), burnin("hgx-h100-8x", {}));
  const auto& c = out.clause("burnin");
  EXPECT_EQ(c.status, ClauseStatus::pass) << c.reason;
  ASSERT_TRUE(c.measured);
  EXPECT_NEAR(*c.measured, 1.0, 0.01);
  const auto& stage = out.stages.back();
  ASSERT_EQ(stage.series.size(), 4u);
  EXPECT_EQ(stage.series.front().names.size(), 8u);
  // The charts are the store's per-minute rollups: one point per GPU and minute of the hour (the
  // last sample opens minute 60), the means of what the GPUs did, no throttled span.
  for (const auto& points : stage.series.front().points) {
    EXPECT_EQ(points.size(), 61u);
    for (const auto& [t, tflops] : points) EXPECT_NEAR(tflops, 791, 10) << t;
  }
  EXPECT_TRUE(stage.series.front().spans.empty());
}

// Throttled time shows on the charts as spans built from the throttled samples of each minute.
TEST(AcceptBurnin, ThrottledTimeIsShadedOnTheCharts) {
  const std::vector<std::string> fault{"thermal-throttle:gpu=3,at=10m"};
  auto out = run_on_sim("hgx-h100-8x", fault, gates_only("hgx-h100-8x") + soak(), burnin("hgx-h100-8x", fault));
  const auto& spans = out.stages.back().series.at(1).spans;
  ASSERT_FALSE(spans.empty());
  EXPECT_GT(spans.front().first, 600);          // cooling fails at 10 min, the clocks drop later
  EXPECT_LE(spans.back().second, 3600 + 1.0);   // to the last sample plus its interval
  for (std::size_t i = 1; i < spans.size(); ++i) EXPECT_GT(spans[i].first, spans[i - 1].second);
}

// The links carry the spec's traffic (burnin.traffic): a marginal link counts its errors then.
TEST(AcceptBurnin, GrowingNvlinkErrorsFailUnlessTolerated) {
  const std::vector<std::string> fault{"nvlink-crc:gpu=2,link=4,per_min=30"};
  auto strict = run_on_sim("hgx-h100-8x", fault, gates_only("hgx-h100-8x") + soak("  traffic: all\n"), burnin("hgx-h100-8x", fault));
  EXPECT_EQ(strict.clause("burnin").status, ClauseStatus::fail);
  EXPECT_TRUE(names(strict.clause("burnin"), "nvlink_errors_growing")) << strict.clause("burnin").reason;
  auto tolerant = run_on_sim("hgx-h100-8x", fault,
                             gates_only("hgx-h100-8x") + soak("  traffic: all\n  nvlink_errors_max: 100000\n"),
                             burnin("hgx-h100-8x", fault));
  EXPECT_EQ(tolerant.clause("burnin").status, ClauseStatus::pass) << tolerant.clause("burnin").reason;
}

// Without traffic in the spec the links stay idle: the marginal link cannot show, and the judge says so.
TEST(AcceptBurnin, WithoutTrafficTheLinksCarryNoneAndTheStageSaysSo) {
  const std::vector<std::string> fault{"nvlink-crc:gpu=2,link=4,per_min=30"};
  auto out = run_on_sim("hgx-h100-8x", fault, gates_only("hgx-h100-8x") + soak(), burnin("hgx-h100-8x", fault));
  EXPECT_EQ(out.clause("burnin").status, ClauseStatus::pass) << out.clause("burnin").reason;
  const auto& findings = out.stages.back().findings;
  EXPECT_TRUE(std::any_of(findings.begin(), findings.end(), [](const core::Finding& f) { return f.code == "links_carried_no_traffic"; }));
}

TEST(AcceptBurnin, SpecTrafficFindsTheSilentlyCorruptingGpu) {
  const std::vector<std::string> fault{"sdc:gpu=6,at=20m"};
  auto out = run_on_sim("hgx-h100-8x", fault, gates_only("hgx-h100-8x") + soak("  traffic: [all_reduce, copies]\n"),
                        burnin("hgx-h100-8x", fault));
  EXPECT_EQ(out.clause("burnin").status, ClauseStatus::fail);
  EXPECT_TRUE(names(out.clause("burnin"), "silent_data_corruption")) << out.clause("burnin").reason;
  EXPECT_NE(out.clause("burnin").reason.find("GPU 6"), std::string::npos) << out.clause("burnin").reason;
  // The busbw-over-time chart beside the temperature and clock charts, one line per collective.
  const auto& series = out.stages.back().series;
  ASSERT_EQ(series.size(), 5u);
  EXPECT_EQ(series.back().title, "Collective busbw under load");
  EXPECT_EQ(series.back().unit, "GB/s");
  EXPECT_EQ(series.back().names, std::vector<std::string>{"all_reduce"});
  ASSERT_EQ(series.back().points.size(), 1u);
  EXPECT_EQ(series.back().points[0].size(), 60u);  // one a minute for the hour
}

TEST(AcceptBurnin, ThrottlingBeyondTheToleranceFails) {
  const std::vector<std::string> fault{"thermal-throttle:gpu=6,at=10m"};
  auto out = run_on_sim("hgx-h100-8x", fault, gates_only("hgx-h100-8x") + soak(), burnin("hgx-h100-8x", fault));
  EXPECT_EQ(out.clause("burnin").status, ClauseStatus::fail);
  EXPECT_TRUE(names(out.clause("burnin"), "throttle_reasons")) << out.clause("burnin").reason;
  EXPECT_NE(out.clause("burnin").reason.find("GPU 6"), std::string::npos);
}

TEST(AcceptBurnin, LostGpuFailsWhateverXidCountIsTolerated) {
  const std::vector<std::string> fault{"gpu-lost:gpu=5,at=30m"};
  auto out = run_on_sim("hgx-h100-8x", fault, gates_only("hgx-h100-8x") + soak("  xid_max: 10\n"), burnin("hgx-h100-8x", fault));
  EXPECT_EQ(out.clause("burnin").status, ClauseStatus::fail);
  EXPECT_TRUE(names(out.clause("burnin"), "gpu_lost")) << out.clause("burnin").reason;
}

TEST(AcceptBurnin, InterruptedSoakIsNotRunAndWillBeRerun) {
  std::atomic<bool> cancel{true};
  auto out = run_on_sim("hgx-h100-8x", {}, gates_only("hgx-h100-8x") + soak(), burnin("hgx-h100-8x", {}, &cancel));
  EXPECT_EQ(out.clause("burnin").status, ClauseStatus::not_run);
  EXPECT_EQ(out.stages.back().status, StageStatus::not_run) << "a resumed run must not keep it as done";
  EXPECT_EQ(out.verdict, core::Verdict::incomplete);
}

}  // namespace
}  // namespace gpuvet::accept::testing
