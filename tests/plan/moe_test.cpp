// Mixture of experts in the planner: expert parallelism's memory split, the all-to-all of token
// dispatch and combine on each fabric, the layout search preferring EP over ZeRO-3, and the CLI.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <cmath>

#include "../cli/cli_runner.hpp"
#include "catalog/gpu_catalog.hpp"
#include "plan/fabric.hpp"
#include "plan/memory.hpp"
#include "plan/model_sources.hpp"
#include "plan/plan.hpp"
#include "plan/step_time.hpp"

namespace gpuvet::plan {
namespace {

const ModelSpec& preset(const char* name) {
  const ModelSpec* m = find_preset(name);
  EXPECT_NE(m, nullptr) << name;
  return *m;
}

Offer h100_nodes(int nodes) {
  Offer o;
  o.name = "hgx";
  o.gpu = *catalog::gpu_catalog().by_id("h100-sxm5-80gb");
  o.interconnect = core::InterconnectClass::nvswitch_full_mesh;
  o.nodes = nodes;
  o.nics_per_node = 8;
  o.nic_gbit_s = 400;
  return o;
}

TEST(PlanMoe, RoutedExpertWeightsOfThePresets) {
  // Mixtral 8x7B (config.json): 32 layers x 8 experts x 3 x 4096 x 14336.
  EXPECT_DOUBLE_EQ(count_params(preset("mixtral-8x7b")).routed_experts, 32.0 * 8 * 3 * 4096 * 14336);
  // DeepSeek-V3: 58 MoE layers (61 - first_k_dense_replace 3) x 256 routed x 3 x 7168 x 2048; the shared
  // expert is replicated like a dense MLP.
  const ModelSpec& ds = preset("deepseek-v3");
  EXPECT_EQ(ds.moe_layers(), 58);
  EXPECT_DOUBLE_EQ(count_params(ds).routed_experts, 58.0 * 256 * 3 * 7168 * 2048);
  EXPECT_EQ(count_params(preset("llama-3-8b")).routed_experts, 0.0);
}

TEST(PlanMoe, ExpertParallelismSplitsExpertStates) {
  const ModelSpec& m = preset("mixtral-8x7b");
  const ParamCounts p = count_params(m);
  const double dense = p.total - p.routed_experts;
  // 16 GPUs, EP 8, ZeRO-1: each GPU holds 1/8 of the experts; their optimizer states are sharded
  // over the dp / ep = 2 ranks holding the same experts, the dense states over all 16.
  const Layout l{1, 1, 16, 1, 8};
  const auto mem = train_memory(m, p, TrainJob{}, l);
  EXPECT_NEAR(mem.weights * kGiB, 2 * (dense + p.routed_experts / 8), 1);
  EXPECT_NEAR(mem.gradients * kGiB, 2 * (dense + p.routed_experts / 8), 1);
  EXPECT_NEAR(mem.optimizer * kGiB, 12 * (dense / 16 + p.routed_experts / 8 / 2), 1);
  // Without EP the experts are ordinary data-parallel weights.
  const auto flat = train_memory(m, p, TrainJob{}, Layout{1, 1, 16, 1, 1});
  EXPECT_NEAR(flat.weights * kGiB, 2 * p.total, 1);
  EXPECT_NEAR(flat.optimizer * kGiB, 12 * p.total / 16, 1);
}

TEST(PlanMoe, AllToAllInsideOneNvswitchNode) {
  // 67.1 MB per GPU (4096 tokens x 4096 x 2 bytes x top-2), 7/8 of it to the 7 other GPUs at
  // 450 GB/s x 0.75 (DeepEP intranode efficiency), plus one collective launch.
  const double bytes = 4096.0 * 4096 * 2 * 2;
  const double want = bytes * 7 / 8 / (450e9 * 0.75) + kCollectiveLatencyS;
  EXPECT_NEAR(all_to_all_seconds(h100_nodes(1), Layout{1, 1, 8, 0, 8}, bytes), want, 1e-9);
  const auto path = all_to_all_path(h100_nodes(1), 8, 1);
  EXPECT_EQ(path.local_ranks, 8);
  EXPECT_NE(path.basis.find("DeepEP"), std::string::npos) << path.basis;
  EXPECT_EQ(all_to_all_seconds(h100_nodes(1), Layout{1, 1, 8, 0, 1}, bytes), 0.0);  // no EP, no all-to-all
}

TEST(PlanMoe, AllToAllAcrossNodesIsPacedByOneNic) {
  // EP 16 over 2 nodes: 7/16 of the bytes over NVLink, 8/16 through the GPU's own 400 Gb/s NIC
  // at 0.92 (46 GB/s); both move at once, the NIC is slower.
  const double bytes = 4096.0 * 4096 * 2 * 2;
  const double nic = 400.0 / 8 * 0.92 * 1e9;
  EXPECT_NEAR(all_to_all_seconds(h100_nodes(2), Layout{1, 1, 16, 0, 16}, bytes), bytes * 8 / 16 / nic + kCollectiveLatencyS,
              1e-9);
  // Half the NICs: each GPU gets half a NIC.
  Offer thin = h100_nodes(2);
  thin.nics_per_node = 4;
  EXPECT_NEAR(all_to_all_seconds(thin, Layout{1, 1, 16, 0, 16}, bytes), bytes * 8 / 16 / (nic / 2) + kCollectiveLatencyS,
              1e-9);
}

TEST(PlanMoe, AllToAllOnPcieAndAcrossNvlinkGroups) {
  Offer pcie;
  pcie.gpu = *catalog::gpu_catalog().by_id("l40s-48gb");
  pcie.interconnect = core::InterconnectClass::pcie_only;
  const double bytes = 1e8;
  const auto path = all_to_all_path(pcie, 8, 1);
  EXPECT_DOUBLE_EQ(path.intra_gbps, pcie.gpu.pcie_gen >= 5 ? 30 : 20);
  EXPECT_NEAR(all_to_all_seconds(pcie, Layout{1, 1, 8, 0, 8}, bytes), bytes * 7 / 8 / (path.intra_gbps * 1e9) + kCollectiveLatencyS,
              1e-9);
  // 4+4 NVLink: an EP group over all 8 GPUs crosses PCIe between the groups.
  Offer split = h100_nodes(1);
  split.interconnect = core::InterconnectClass::nvlink_partial;
  split.nvlink_island = 4;
  EXPECT_LT(all_to_all_path(split, 8, 1).intra_gbps, 50.0);
  EXPECT_GT(all_to_all_path(split, 4, 1).intra_gbps, 300.0);
}

TEST(PlanMoe, StepCountsFourAllToAllsPerMoeLayerPerMicroBatch) {
  const ModelSpec& m = preset("mixtral-8x7b");
  const ParamCounts p = count_params(m);
  TrainJob job;
  job.global_batch = 32;  // 16 ranks x micro-batch 1 -> 2 micro-batches
  const Layout l{1, 1, 16, 1, 8};
  const Offer o = h100_nodes(2);
  const double bytes = 4096.0 * m.hidden * 2 * m.experts_per_token;
  const auto t = train_step(m, p, job, l, o, 400e12);
  EXPECT_NEAR(t.ep_comm, 4.0 * 32 * 2 * all_to_all_seconds(o, l, bytes), 1e-9);
  job.recompute = Recompute::full;
  EXPECT_NEAR(train_step(m, p, job, l, o, 400e12).ep_comm, 6.0 * 32 * 2 * all_to_all_seconds(o, l, bytes), 1e-9);
  // The all-to-all is exposed: it counts in the overlapped step and in the communication share.
  EXPECT_NEAR(t.total_overlapped() - t.compute - t.dp_exposed, t.ep_comm, 1e-9);
  // Expert gradients are reduced among the dp / ep = 2 ranks holding the same experts.
  bool expert_line = false;
  for (const auto& b : t.basis) expert_line = expert_line || b.rfind("expert data parallel", 0) == 0;
  EXPECT_TRUE(expert_line);
}

TEST(PlanMoe, DeepSeekV3CrossNodeAllToAllIsAsLongAsCompute) {
  // DeepSeek-V3 report (arXiv 2412.19437) 3.2.1: on its H800 cluster (8 GPUs per node over NVLink,
  // one 400 Gb/s IB NIC per GPU) with EP 64 over 8 nodes, "the communication overhead introduced by
  // cross-node expert parallelism results in an inefficient computation-to-communication ratio of
  // approximately 1:1". Same layout here (PP 16, EP 64, FP8 at the planner's 30 % of the FP8 peak).
  // The report says no more than "approximately", and the planner leaves out its node-limited
  // routing and FP8 dispatch (less traffic) and its compute efficiency (unpublished): 1:1.5 to 1.5:1.
  const ModelSpec& m = preset("deepseek-v3");
  TrainJob job;
  job.precision = Precision::fp8;
  job.global_batch = 15360;
  Offer o = h100_nodes(256);
  o.gpu = *catalog::gpu_catalog().by_id("h800-sxm5-80gb");
  const Layout l{1, 16, 128, 1, 64};
  const auto t = train_step(m, count_params(m), job, l, o, 0.30 * *o.gpu.fp8_tflops * 1e12);
  const double ratio = t.compute / t.ep_comm;
  EXPECT_GT(ratio, 1 / 1.5) << t.compute << " s compute, " << t.ep_comm << " s all-to-all";
  EXPECT_LT(ratio, 1.5) << t.compute << " s compute, " << t.ep_comm << " s all-to-all";
}

TEST(PlanMoe, DecodeReadsOnlyTheExpertsItsTokensReach) {
  // Uniform routing: one token reads top-k of E experts; 32 tokens of DeepSeek-V3 (top-8 of 256)
  // reach 1 - (1 - 8/256)^32 = 63.7 % of them; Mixtral's top-2 of 8 are all read by 32 tokens.
  const ModelSpec& ds = preset("deepseek-v3");
  EXPECT_NEAR(expert_share_touched(ds, 1), 8.0 / 256, 1e-12);
  EXPECT_NEAR(expert_share_touched(ds, 32), 1 - std::pow(1 - 8.0 / 256, 32), 1e-12);
  EXPECT_NEAR(expert_share_touched(preset("mixtral-8x7b"), 32), 1.0, 1e-3);
  EXPECT_EQ(expert_share_touched(preset("llama-3-8b"), 1), 1.0);
  const ParamCounts p = count_params(ds);
  InferJob job;
  job.weights = Precision::fp8;
  job.concurrent = 1;
  job.context = 1;
  const Offer o = h100_nodes(1);
  const auto r = infer_throughput(ds, p, job, Layout{8, 1, 1, 0}, o, 400e12, 3000);
  const double kv = kv_bytes_per_token_per_gpu(ds, 8, 2);
  EXPECT_NEAR(r.decode_bytes_per_gpu, (p.total - p.routed_experts + p.routed_experts * 8 / 256) / 8 + kv, 1.0);
}

TEST(PlanMoe, ExpertsSpreadOverAThinNetworkAreWarned) {
  // Mixtral at TP 2 x EP 8 over two nodes with one 100 Gb/s NIC each: an EP group holds 4 GPUs
  // of each node, so half of every token all-to-all crosses a NIC each GPU gets an eighth of.
  Offer thin = h100_nodes(2);
  thin.nics_per_node = 1;
  thin.nic_gbit_s = 100;
  Job job;
  job.train.tp = 2;
  job.train.ep = 8;
  const Plan plan = make_plan(preset("mixtral-8x7b"), job, {thin});
  const OfferPlan& p = plan.offers.front();
  ASSERT_TRUE(p.fits);
  EXPECT_EQ(p.layout.ep, 8);
  EXPECT_EQ(all_to_all_path(thin, 8, 2).local_ranks, 4);
  EXPECT_GT(p.step.ep_comm, p.step.compute);
  bool warned = false;
  for (const auto& f : p.findings) warned = warned || (f.code == "plan_sharding_over_slow_link" &&
                                                       f.message.find("(EP 8)") != std::string::npos);
  EXPECT_TRUE(warned);
}

TEST(PlanMoe, LayoutSearchPrefersExpertParallelOverZero3) {
  const ModelSpec& m = preset("mixtral-8x7b");
  const ParamCounts p = count_params(m);
  Job job;
  const auto chosen = choose_layout(m, p, job, 8, 2, 79.6, true);
  ASSERT_TRUE(chosen.fits);
  EXPECT_GT(chosen.layout.ep, 1);
  EXPECT_LT(chosen.layout.zero, 3);
  // Held to EP 1, the same job needs ZeRO-3.
  job.train.ep = 1;
  const auto flat = choose_layout(m, p, job, 8, 2, 79.6, true);
  ASSERT_TRUE(flat.fits);
  EXPECT_EQ(flat.layout.zero, 3);
  // Dense models never plan EP.
  Job dense;
  EXPECT_EQ(choose_layout(preset("llama-3-8b"), count_params(preset("llama-3-8b")), dense, 8, 2, 79.6, true).layout.ep, 1);
}

TEST(PlanMoe, CliShowsExpertParallelism) {
  const auto r = testing::run_cli({"plan", "--model", "deepseek-v3", "--offer", "hgx-h100-8x", "--ep", "8", "--json"});
  ASSERT_TRUE(r.exit_code == 0 || r.exit_code == 1) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["offers"][0]["layout"]["ep"], 8);
  EXPECT_GT(j["offers"][0]["step_time_s"]["ep_comm"].get<double>(), 0.0);
  bool said = false;
  for (const auto& a : j["assumptions"]) said = said || a.get<std::string>().find("load imbalance") != std::string::npos;
  EXPECT_TRUE(said) << "the MoE caveats are stated";
  const auto dense = testing::run_cli({"plan", "--model", "llama-3-8b", "--offer", "hgx-h100-8x", "--ep", "2"});
  EXPECT_EQ(dense.exit_code, 2);
  EXPECT_NE(dense.err.find("--ep 2: llama-3-8b is not a mixture of experts"), std::string::npos) << dense.err;
  const auto odd = testing::run_cli({"plan", "--model", "mixtral-8x7b", "--offer", "hgx-h100-8x", "--ep", "3"});
  EXPECT_EQ(odd.exit_code, 2);
  EXPECT_NE(odd.err.find("must divide"), std::string::npos) << odd.err;
  // A fixed layout the offer cannot hold is a usage error naming the flags and the offer, not a
  // plan of 0 GiB: TP 2 leaves 4 data-parallel ranks, too few for EP 8.
  const auto unplaced = testing::run_cli({"plan", "--model", "mixtral-8x7b", "--offer", "hgx-h100-8x", "--ep", "8", "--tp", "2"});
  EXPECT_EQ(unplaced.exit_code, 2);
  EXPECT_NE(unplaced.err.find("--tp 2 --ep 8: no such layout on offer hgx-h100-8x (1 node(s) x 8 GPUs)"), std::string::npos)
      << unplaced.err;
  const auto tp3 = testing::run_cli({"plan", "--model", "llama-3-8b", "--offer", "hgx-h100-8x", "--tp", "3"});
  EXPECT_EQ(tp3.exit_code, 2);
  EXPECT_NE(tp3.err.find("--tp 3: no such layout"), std::string::npos) << tp3.err;
}

}  // namespace
}  // namespace gpuvet::plan
