// The quick gates on the simulator: the clean offer passes its template; the traps of the
// buyer's guide (4+4 "8-card NVLink", mixed batch, inference cards for training, NVLink down,
// PCIe downtrained, NUMA misplaced, a missing GPU) each fail the clause that promised otherwise.
#include <gtest/gtest.h>

#include "accept_test_support.hpp"

namespace gpuvet::accept::testing {
namespace {

TEST(AcceptGates, CleanProfilesPassTheirTemplatesQuickGates) {
  for (const char* name : {"hgx-h100-8x", "hgx-a100-8x", "hgx-h100-4x", "rtx4090-8x", "h800-8x", "l40s-8x"}) {
    auto out = run_on_sim(name, {}, gates_only(name));
    EXPECT_EQ(out.verdict, core::Verdict::pass) << name << ": " << (out.why.empty() ? "" : out.why.front());
  }
}

TEST(AcceptGates, UnreportedBatchAttributeIsIncompleteNotPass) {
  // GeForce boards report no board part number: a same-batch promise that names it cannot be
  // checked on the 8x RTX 4090 box, and nothing else is wrong.
  auto spec = gates_only("rtx4090-8x");
  const std::string from = "same_batch: [model, vbios, memory, power_limit]";
  ASSERT_NE(spec.find(from), std::string::npos);
  spec.replace(spec.find(from), from.size(), "same_batch: [model, vbios, board_part_number, memory, power_limit]");
  auto out = run_on_sim("rtx4090-8x", {}, spec);
  EXPECT_EQ(out.verdict, core::Verdict::incomplete);
  const auto& batch = out.clause("gpu.same_batch");
  EXPECT_EQ(batch.status, ClauseStatus::not_run);
  EXPECT_NE(batch.reason.find("board_part_number of GPU 0 not reported"), std::string::npos) << batch.reason;
  ASSERT_EQ(out.why.size(), 1u);
}

TEST(AcceptGates, FullTemplateIsIncompleteWhileMeasuringStagesAreMissing) {
  auto out = run_on_sim("hgx-h100-8x", {}, gates_only("hgx-h100-8x") + "bandwidth: {h2d_gbps: auto}\n");
  EXPECT_EQ(out.verdict, core::Verdict::incomplete);
  EXPECT_EQ(out.clause("gpu.count").status, ClauseStatus::pass);
  const auto& h2d = out.clause("bandwidth.h2d");
  EXPECT_EQ(h2d.status, ClauseStatus::not_run);
  EXPECT_EQ(h2d.reason, "not built into this binary yet");
}

TEST(AcceptGates, FourPlusFourTrapFailsAnNvSwitchSpec) {
  auto out = run_on_sim("nvlink-4plus4-8x", {}, gates_only("hgx-a100-8x"));
  EXPECT_EQ(out.verdict, core::Verdict::fail);
  const auto& ic = out.clause("interconnect");
  EXPECT_EQ(ic.status, ClauseStatus::fail);
  EXPECT_EQ(ic.observed, "nvlink_partial");
  EXPECT_NE(std::find(ic.findings.begin(), ic.findings.end(), "interconnect_not_as_claimed"), ic.findings.end());
  EXPECT_EQ(out.clause("gpu.model").status, ClauseStatus::fail);  // 4 of them are PCIe cards
  EXPECT_EQ(out.clause("gpu.count").status, ClauseStatus::pass);
}

TEST(AcceptGates, MixedBatchFailsSameBatch) {
  auto out = run_on_sim("hgx-h100-8x", {"mixed-batch:gpu=5,vbios=96.00.61.00.01"}, gates_only("hgx-h100-8x"));
  EXPECT_EQ(out.verdict, core::Verdict::fail);
  const auto& batch = out.clause("gpu.same_batch");
  EXPECT_EQ(batch.status, ClauseStatus::fail);
  EXPECT_NE(batch.reason.find("vbios differs"), std::string::npos) << batch.reason;
  EXPECT_NE(batch.reason.find("on GPU 5"), std::string::npos) << batch.reason;
  EXPECT_EQ(out.clause("gpu.model").status, ClauseStatus::pass);
}

TEST(AcceptGates, InferenceCardsFailATrainingSpec) {
  // An offer of 8x L40S against what was promised for training: the workload clause fails
  // (and the model clause, since the spec names H100).
  auto spec = gates_only("l40s-8x");
  spec.replace(spec.find("workload: infer"), 15, "workload: train");
  auto out = run_on_sim("l40s-8x", {}, spec);
  EXPECT_EQ(out.verdict, core::Verdict::fail);
  const auto& w = out.clause("workload");
  EXPECT_EQ(w.status, ClauseStatus::fail);
  EXPECT_NE(w.reason.find("inference cards, rented for training"), std::string::npos) << w.reason;
  EXPECT_EQ(out.clause("gpu.model").status, ClauseStatus::pass);
  EXPECT_EQ(out.clause("interconnect").status, ClauseStatus::pass);
}

TEST(AcceptGates, EachFaultFailsItsClause) {
  struct Case {
    const char* fault;
    const char* clause;
  };
  for (const auto& c : {Case{"nvlink-down:gpu=3,link=2", "interconnect"}, Case{"pcie-degraded:gpu=2,width=8", "pcie"},
                        Case{"numa-misplaced:gpu=1,node=1", "numa"}, Case{"gpu-missing:gpu=6", "gpu.count"},
                        Case{"mixed-batch:gpu=0,memory_gib=40", "gpu.memory"}}) {
    auto out = run_on_sim("hgx-h100-8x", {c.fault}, gates_only("hgx-h100-8x"));
    EXPECT_EQ(out.verdict, core::Verdict::fail) << c.fault;
    EXPECT_EQ(out.clause(c.clause).status, ClauseStatus::fail) << c.fault << ": " << out.clause(c.clause).reason;
  }
}

TEST(AcceptGates, DownLinkObservedSaysWhatWasFoundNotThePromise) {
  auto out = run_on_sim("hgx-h100-8x", {"nvlink-down:gpu=2,link=1"}, gates_only("hgx-h100-8x"));
  const auto& ic = out.clause("interconnect");
  EXPECT_EQ(ic.status, ClauseStatus::fail);
  EXPECT_NE(ic.observed, ic.expected);
  EXPECT_EQ(ic.observed, "nvswitch_full_mesh, but GPU 2: 17 of 18 NVLink links up");
  auto clean = run_on_sim("hgx-h100-8x", {}, gates_only("hgx-h100-8x"));
  EXPECT_EQ(clean.clause("interconnect").observed, "nvswitch_full_mesh");
}

TEST(AcceptGates, NoGpuAtAllFailsTheCountAndDecidesNothingVacuously) {
  std::vector<std::string> faults;
  for (int gpu = 0; gpu < 4; ++gpu) faults.push_back("gpu-missing:gpu=" + std::to_string(gpu));
  auto out = run_on_sim("hgx-h100-4x", faults, gates_only("hgx-h100-4x"));
  EXPECT_EQ(out.verdict, core::Verdict::fail);
  EXPECT_EQ(out.clause("gpu.count").status, ClauseStatus::fail);
  for (const char* id : {"gpu.model", "gpu.same_batch", "workload", "pcie", "numa", "gpu.memory", "gpu.health"}) {
    EXPECT_EQ(out.clause(id).status, ClauseStatus::not_run) << id;
    EXPECT_EQ(out.clause(id).reason, "the machine picture lists no GPU") << id;
  }
}

TEST(AcceptGates, ClauseNumbersForComparison) {
  auto out = run_on_sim("hgx-h100-8x", {}, gates_only("hgx-h100-8x"));
  const auto& mem = out.clause("gpu.memory");
  ASSERT_TRUE(mem.measured && mem.target);
  EXPECT_NEAR(*mem.measured, 81559 / 1024.0, 1e-9);
  EXPECT_EQ(*mem.target, 80);
  EXPECT_EQ(out.clause("gpu.count").measured, 8);
  EXPECT_EQ(out.clause("nics").measured, 8);
}

}  // namespace
}  // namespace gpuvet::accept::testing
