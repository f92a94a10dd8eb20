// The runner: a pluggable stage decides its clauses; a missing, throwing or lazy stage leaves
// them not run (incomplete, never pass); --quick skips the burn-in; --fail-fast stops after a
// failing stage; resumed measuring stages are not rerun, quick gates always are.
#include <gtest/gtest.h>

#include <stdexcept>

#include "accept/clauses.hpp"
#include "accept_test_support.hpp"

namespace gpuvet::accept::testing {
namespace {

const std::string kBandwidthSpec = "bandwidth: {h2d_gbps: 50, p2p_gbps: auto}\n";
const std::string kBurninSpec = "burnin: {duration: 4h}\n";

// A bandwidth stage that reports fixed results and counts its runs.
class FakeBandwidth final : public Stage {
 public:
  FakeBandwidth(ClauseStatus h2d, int* runs, bool decide_all = true, bool throws = false)
      : h2d_(h2d), runs_(runs), decide_all_(decide_all), throws_(throws) {}
  [[nodiscard]] std::string id() const override { return "bandwidth"; }
  [[nodiscard]] std::string title() const override { return "fake bandwidth"; }
  [[nodiscard]] std::vector<ClauseResult> clauses(const spec::Spec& s) const override { return bandwidth_clauses(s); }
  StageRecord run(const StageContext&, std::vector<ClauseResult> clauses) const override {
    ++*runs_;
    if (throws_) throw std::runtime_error("cudaMalloc failed");
    StageRecord r;
    r.status = StageStatus::done;
    for (auto& c : clauses) {
      c.status = c.id == "bandwidth.h2d" ? h2d_ : ClauseStatus::pass;
      c.reason = c.status == ClauseStatus::fail ? "GPU 3 at 20 GB/s" : "";
    }
    if (!decide_all_) clauses.pop_back();
    r.clauses = clauses;
    return r;
  }

 private:
  ClauseStatus h2d_;
  int* runs_;
  bool decide_all_;
  bool throws_;
};

class FakeBurnin final : public Stage {
 public:
  [[nodiscard]] std::string id() const override { return "burnin"; }
  [[nodiscard]] std::string title() const override { return "fake burn-in"; }
  [[nodiscard]] bool long_running() const override { return true; }
  [[nodiscard]] std::vector<ClauseResult> clauses(const spec::Spec& s) const override { return burnin_clauses(s); }
  StageRecord run(const StageContext&, std::vector<ClauseResult> clauses) const override {
    for (auto& c : clauses) c.status = ClauseStatus::pass;
    return {"", "", StageStatus::done, "", 0, false, clauses, {}, {}, {}, std::nullopt};
  }
};

StageProviders bandwidth(ClauseStatus h2d, int* runs, bool decide_all = true, bool throws = false) {
  StageProviders p;
  p.bandwidth = std::make_unique<FakeBandwidth>(h2d, runs, decide_all, throws);
  return p;
}

TEST(AcceptRunner, PluggedStageDecidesItsClauses) {
  int runs = 0;
  auto out = run_on_sim("hgx-h100-8x", {}, gates_only("hgx-h100-8x") + kBandwidthSpec, bandwidth(ClauseStatus::pass, &runs));
  EXPECT_EQ(runs, 1);
  EXPECT_EQ(out.verdict, core::Verdict::pass) << (out.why.empty() ? "" : out.why.front());
  auto failing = run_on_sim("hgx-h100-8x", {}, gates_only("hgx-h100-8x") + kBandwidthSpec, bandwidth(ClauseStatus::fail, &runs));
  EXPECT_EQ(failing.verdict, core::Verdict::fail);
  EXPECT_EQ(failing.why.front(), "bandwidth.h2d failed: GPU 3 at 20 GB/s");
}

TEST(AcceptRunner, UndecidedClauseIsNotRun) {
  int runs = 0;
  auto out = run_on_sim("hgx-h100-8x", {}, gates_only("hgx-h100-8x") + kBandwidthSpec,
                        bandwidth(ClauseStatus::pass, &runs, /*decide_all=*/false));
  EXPECT_EQ(out.verdict, core::Verdict::incomplete);
  EXPECT_EQ(out.clause("bandwidth.p2p").status, ClauseStatus::not_run);
  EXPECT_EQ(out.clause("bandwidth.p2p").reason, "the stage did not decide this clause");
}

TEST(AcceptRunner, ThrowingStageIsAnErrorAndIncomplete) {
  int runs = 0;
  auto out = run_on_sim("hgx-h100-8x", {}, gates_only("hgx-h100-8x") + kBandwidthSpec,
                        bandwidth(ClauseStatus::pass, &runs, true, /*throws=*/true));
  EXPECT_EQ(out.verdict, core::Verdict::incomplete);
  EXPECT_EQ(out.stages[4].id, "bandwidth");
  EXPECT_EQ(out.stages[4].status, StageStatus::error);
  EXPECT_EQ(out.clause("bandwidth.h2d").reason, "stage error: cudaMalloc failed");
}

TEST(AcceptRunner, QuickSkipsTheBurnInAsNotRun) {
  StageProviders p;
  p.burnin = std::make_unique<FakeBurnin>();
  auto full = run_on_sim("hgx-h100-8x", {}, gates_only("hgx-h100-8x") + kBurninSpec, std::move(p));
  EXPECT_EQ(full.verdict, core::Verdict::pass);
  StageProviders q;
  q.burnin = std::make_unique<FakeBurnin>();
  auto quick = run_on_sim("hgx-h100-8x", {}, gates_only("hgx-h100-8x") + kBurninSpec, std::move(q), {true, false});
  EXPECT_EQ(quick.verdict, core::Verdict::incomplete);
  EXPECT_EQ(quick.clause("burnin").status, ClauseStatus::not_run);
  EXPECT_EQ(quick.clause("burnin").reason, "skipped by --quick");
}

TEST(AcceptRunner, FailFastStopsAfterTheFirstFailingStage) {
  int runs = 0;
  auto out = run_on_sim("nvlink-4plus4-8x", {}, gates_only("hgx-a100-8x") + kBandwidthSpec, bandwidth(ClauseStatus::pass, &runs),
                        {false, true});
  EXPECT_EQ(runs, 0);
  EXPECT_EQ(out.verdict, core::Verdict::fail);
  EXPECT_EQ(out.clause("bandwidth.h2d").reason, "--fail-fast: stopped after inventory failed");
  EXPECT_EQ(out.clause("interconnect").status, ClauseStatus::not_run);
}

TEST(AcceptRunner, ResumedStagesAreNotRerun) {
  int runs = 0;
  const auto spec = gates_only("hgx-h100-8x") + kBandwidthSpec;
  auto first = run_on_sim("hgx-h100-8x", {}, spec, bandwidth(ClauseStatus::pass, &runs));
  ASSERT_EQ(runs, 1);
  auto second = run_on_sim("hgx-h100-8x", {}, spec, bandwidth(ClauseStatus::fail, &runs), {}, first.stages);
  EXPECT_EQ(runs, 1);  // taken from the earlier run, so the (now failing) fake did not run
  EXPECT_EQ(second.verdict, core::Verdict::pass);
  for (const auto& s : second.stages) {
    if (s.clauses.empty()) continue;
    // The quick gates are observed again on every run; only measuring stages are taken over.
    const bool gate = s.id == "inventory" || s.id == "topology" || s.id == "numa" || s.id == "memory";
    EXPECT_EQ(s.resumed, !gate) << s.id;
  }
  // A stage that did not complete earlier runs again.
  auto partial = first.stages;
  partial[4].status = StageStatus::error;
  run_on_sim("hgx-h100-8x", {}, spec, bandwidth(ClauseStatus::pass, &runs), {}, partial);
  EXPECT_EQ(runs, 2);
}

TEST(AcceptRunner, ResumedGatesAreObservedAgainSoAChangedMachineFails) {
  // The earlier run saw 8 GPUs and passed; a GPU has gone since. Its saved gate records must not
  // stand in for the machine in front of us.
  int runs = 0;
  const auto spec = gates_only("hgx-h100-8x") + kBandwidthSpec;
  auto first = run_on_sim("hgx-h100-8x", {}, spec, bandwidth(ClauseStatus::pass, &runs));
  ASSERT_EQ(first.verdict, core::Verdict::pass);
  auto second = run_on_sim("hgx-h100-8x", {"gpu-missing:gpu=3"}, spec, bandwidth(ClauseStatus::pass, &runs), {}, first.stages);
  EXPECT_EQ(second.verdict, core::Verdict::fail);
  EXPECT_EQ(second.clause("gpu.count").status, ClauseStatus::fail);
  EXPECT_NE(second.clause("gpu.count").observed.find("7"), std::string::npos) << second.clause("gpu.count").observed;
}

// A bandwidth stage that declines to run here (e.g. a single-GPU machine has no P2P pairs).
class DecliningBandwidth final : public Stage {
 public:
  [[nodiscard]] std::string id() const override { return "bandwidth"; }
  [[nodiscard]] std::string title() const override { return "declining bandwidth"; }
  [[nodiscard]] std::vector<ClauseResult> clauses(const spec::Spec& s) const override { return bandwidth_clauses(s); }
  [[nodiscard]] Applicability applicable(const StageContext&) const override { return {false, "no GPU pairs", false}; }
  StageRecord run(const StageContext&, std::vector<ClauseResult>) const override {
    ADD_FAILURE() << "a waived stage must not run";
    return {};
  }
};

TEST(AcceptRunner, WaivedStageIsIncompleteNotPass) {
  StageProviders p;
  p.bandwidth = std::make_unique<DecliningBandwidth>();
  auto out = run_on_sim("hgx-h100-8x", {}, gates_only("hgx-h100-8x") + kBandwidthSpec, std::move(p));
  EXPECT_EQ(out.verdict, core::Verdict::incomplete);
  EXPECT_EQ(out.stages[4].status, StageStatus::waived);
  EXPECT_EQ(out.clause("bandwidth.h2d").status, ClauseStatus::not_run);
  EXPECT_EQ(out.clause("bandwidth.h2d").reason, "waived: no GPU pairs");
}

TEST(AcceptRunner, NothingToCheckIsIncomplete) {
  auto out = run_on_sim("hgx-h100-8x", {}, "name: empty\n");
  EXPECT_EQ(out.verdict, core::Verdict::incomplete);
  EXPECT_EQ(out.why.back(), "the spec states nothing to check");
}

TEST(AcceptRunner, StagesRunInRegistryOrder) {
  auto out = run_on_sim("hgx-h100-8x", {}, gates_only("hgx-h100-8x"));
  std::vector<std::string> ids;
  for (const auto& s : out.stages) ids.push_back(s.id);
  EXPECT_EQ(ids, (std::vector<std::string>{"inventory", "topology", "numa", "memory", "bandwidth", "vram", "collectives", "burnin"}));
}

}  // namespace
}  // namespace gpuvet::accept::testing
