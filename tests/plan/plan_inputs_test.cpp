// Inputs of gpuvet plan and their errors: config.json, offers YAML, layouts, inference.
#include <gtest/gtest.h>

#include "catalog/gpu_catalog.hpp"
#include "plan/model_sources.hpp"
#include "plan/plan.hpp"

namespace gpuvet::plan {
namespace {

TEST(PlanInputs, EveryPresetParsesAndNamesItsSource) {
  ASSERT_GE(model_presets().size(), 10u);
  for (const auto& m : model_presets()) EXPECT_FALSE(m.source.empty()) << m.name;
}

TEST(PlanInputs, HuggingFaceConfigReadsLlama3_8B) {
  const char* text = R"({"num_hidden_layers": 32, "hidden_size": 4096, "num_attention_heads": 32,
    "num_key_value_heads": 8, "intermediate_size": 14336, "vocab_size": 128256, "tie_word_embeddings": false})";
  auto m = parse_hf_config(text, "config.json");
  ASSERT_TRUE(m) << m.error().message;
  EXPECT_NEAR(count_params(*m).total / 8.03e9, 1.0, 0.01);
}

TEST(PlanInputs, ConfigMissingFieldNamesFileAndField) {
  auto m = parse_hf_config(R"({"num_hidden_layers": 32, "hidden_size": 4096})", "llama/config.json");
  ASSERT_FALSE(m);
  EXPECT_EQ(m.error().kind, core::ErrorKind::bad_input);
  EXPECT_EQ(m.error().message, "llama/config.json: num_attention_heads: missing (attention heads)");
  auto bad = parse_hf_config(R"({"num_hidden_layers": "32"})", "c.json");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("c.json: num_hidden_layers: expected a non-negative whole number"), std::string::npos);
}

TEST(PlanInputs, AttentionHeadsThatLeaveNoWidthAreBadInputNamingBothKeys) {
  // Issue 20: 64 heads on a width of 32 gave head_dim 0, a free KV cache and a plan that fit any context.
  const auto config = [](const std::string& heads_and_more) {
    return R"({"num_hidden_layers": 32, "hidden_size": 32, "intermediate_size": 128, "vocab_size": 1000, )" + heads_and_more +
           "}";
  };
  auto wide = parse_hf_config(config(R"("num_attention_heads": 64)"), "tiny/config.json");
  ASSERT_FALSE(wide);
  EXPECT_EQ(wide.error().kind, core::ErrorKind::bad_input);
  EXPECT_NE(wide.error().message.find("tiny/config.json: num_attention_heads (64) is more than hidden_size (32)"),
            std::string::npos)
      << wide.error().message;
  auto uneven = parse_hf_config(config(R"("num_attention_heads": 5)"), "c.json");
  ASSERT_FALSE(uneven);
  EXPECT_NE(uneven.error().message.find("c.json: num_attention_heads (5) does not divide hidden_size (32)"), std::string::npos)
      << uneven.error().message;
  EXPECT_TRUE(parse_hf_config(config(R"("num_attention_heads": 5, "head_dim": 8)"), "c.json"));  // stated: believed
  auto zero = parse_hf_config(config(R"("num_attention_heads": 4, "head_dim": 0)"), "c.json");
  ASSERT_FALSE(zero);
  EXPECT_NE(zero.error().message.find("c.json: head_dim: must be positive, found 0"), std::string::npos);
  auto kv = parse_hf_config(config(R"("num_attention_heads": 4, "num_key_value_heads": 8)"), "c.json");
  ASSERT_FALSE(kv);
  EXPECT_NE(kv.error().message.find("num_key_value_heads: must be 1..num_attention_heads (4), found 8"), std::string::npos);
  auto negative = parse_hf_config(config(R"("num_attention_heads": -4)"), "c.json");
  ASSERT_FALSE(negative);
  EXPECT_NE(negative.error().message.find("c.json: num_attention_heads: expected a non-negative whole number"), std::string::npos);
}

TEST(PlanInputs, AKeyWrittenTwiceInAnOffersFileIsRefused) {
  auto twice = parse_offers("offers:\n  - name: x\n    gpu: h100-sxm5-80gb\n    price_per_gpu_hour: 2\n    price_per_gpu_hour: 0.5\n",
                            "o.yaml", catalog::gpu_catalog());
  ASSERT_FALSE(twice);
  EXPECT_EQ(twice.error().kind, core::ErrorKind::bad_input);
  EXPECT_NE(twice.error().message.find("o.yaml: offers[0].price_per_gpu_hour (line 5): written twice (first on line 4)"),
            std::string::npos)
      << twice.error().message;
  auto top = parse_offers("offers:\n  - name: x\n    gpu: l40s-48gb\noffers:\n  - name: y\n    gpu: l40s-48gb\n", "o.yaml",
                          catalog::gpu_catalog());
  ASSERT_FALSE(top);
  EXPECT_NE(top.error().message.find("o.yaml: offers (line 4): written twice"), std::string::npos) << top.error().message;
  auto deep = parse_offers(std::string(5000, '[') + std::string(5000, ']'), "o.yaml", catalog::gpu_catalog());
  ASSERT_FALSE(deep);
  EXPECT_NE(deep.error().message.find("o.yaml: line 1: brackets nested deeper than"), std::string::npos);
}

TEST(PlanInputs, OfferErrorsNameFileAndField) {
  const auto& catalog = catalog::gpu_catalog();
  auto unknown = parse_offers("offers:\n  - name: x\n    gpu: h900\n", "offers.yaml", catalog);
  ASSERT_FALSE(unknown);
  EXPECT_EQ(unknown.error().kind, core::ErrorKind::bad_input);
  EXPECT_NE(unknown.error().message.find("offers.yaml: offers[0].gpu (line 3): unknown GPU model 'h900'"), std::string::npos);
  auto negative = parse_offers("offers:\n  - name: x\n    gpu: h100-sxm5-80gb\n    price_per_gpu_hour: -2\n", "o.yaml", catalog);
  ASSERT_FALSE(negative);
  EXPECT_EQ(negative.error().message, "o.yaml: offers[0].price_per_gpu_hour (line 4): must not be negative, found -2");
  auto field = parse_offers("offers:\n  - name: x\n    gpu: h100-sxm5-80gb\n    pricee: 2\n", "o.yaml", catalog);
  ASSERT_FALSE(field);
  EXPECT_NE(field.error().message.find("o.yaml: offers[0].pricee: unknown field"), std::string::npos);
}

TEST(PlanInputs, SeveralNodesNeedTheirNics) {
  // Without NICs nothing crosses between the nodes: an error naming the field, not infinite days.
  auto none = parse_offers("offers:\n  - name: x\n    gpu: h100-sxm5-80gb\n    nodes: 2\n", "o.yaml", catalog::gpu_catalog());
  ASSERT_FALSE(none);
  EXPECT_EQ(none.error().kind, core::ErrorKind::bad_input);
  EXPECT_NE(none.error().message.find("o.yaml: offers[0].nics: needed when nodes > 1 (2 nodes)"), std::string::npos)
      << none.error().message;
  auto zero = parse_offers("offers:\n  - name: x\n    gpu: h100-sxm5-80gb\n    nodes: 2\n    nics: {count: 8, gbit_s: 0}\n",
                           "o.yaml", catalog::gpu_catalog());
  EXPECT_FALSE(zero);
}

TEST(PlanInputs, MachinePriceIsPerNode) {
  auto offers = parse_offers("offers:\n  - name: x\n    gpu: l40s-48gb\n    price_per_machine_hour: 8\n", "o.yaml",
                             catalog::gpu_catalog());
  ASSERT_TRUE(offers) << offers.error().message;
  EXPECT_DOUBLE_EQ(*offers->front().gpu_hour_price(), 1.0);
  EXPECT_EQ(offers->front().interconnect, core::InterconnectClass::pcie_only);
}

TEST(PlanLayouts, SeventyBNeedsTwoNodesOfH100WithRecomputation) {
  Offer o;
  o.name = "hgx";
  o.gpu = *catalog::gpu_catalog().by_id("h100-sxm5-80gb");
  o.interconnect = core::InterconnectClass::nvswitch_full_mesh;
  o.nics_per_node = 8;
  o.nic_gbit_s = 400;
  Job job;
  // 70B with Adam needs 16 x 70.6e9 = 1.13 TB of model states: more than one node's 640 GB.
  Plan one = make_plan(*find_preset("llama-3-70b"), job, {o});
  EXPECT_FALSE(one.offers[0].fits);
  ASSERT_EQ(one.offers[0].findings.front().code, "plan_does_not_fit");
  job.train.recompute = Recompute::full;
  o.nodes = 2;
  Plan two = make_plan(*find_preset("llama-3-70b"), job, {o});
  EXPECT_TRUE(two.offers[0].fits) << two.offers[0].memory.total();
  EXPECT_EQ(two.offers[0].layout.zero, 3);
}

TEST(PlanInference, DecodeIsMemoryBoundAndPcieSlowsTensorParallel) {
  Job job;
  job.workload = Workload::infer;
  Offer h100;
  h100.name = "h100";
  h100.gpu = *catalog::gpu_catalog().by_id("h100-sxm5-80gb");
  h100.interconnect = core::InterconnectClass::nvswitch_full_mesh;
  h100.price_per_gpu_hour = 2.5;
  Plan p = make_plan(*find_preset("llama-3-8b"), job, {h100});
  const auto& o = p.offers[0];
  ASSERT_TRUE(o.fits && o.infer);
  EXPECT_EQ(o.layout.tp, 1);  // 16 GB of weights + 32 GiB of KV cache fit one GPU
  EXPECT_TRUE(o.infer->memory_bound);
  // Bytes per step over 85 % of 3350 GB/s: weights 16.1 GB + KV 32 x 8192 x 128 KiB.
  const double step = (2 * count_params(p.model).total + 32.0 * 8192 * 131072) / (3350e9 * 0.85);
  EXPECT_NEAR(o.infer->decode_tokens_per_s_per_gpu, 32 / step, 1e-6 * 32 / step);
  ASSERT_TRUE(o.cost_per_million_tokens);
}

}  // namespace
}  // namespace gpuvet::plan
