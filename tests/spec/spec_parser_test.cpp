// The spec parser: a short spec is completed from the catalogue; every error names its line.
#include <gtest/gtest.h>

#include "catalog/gpu_catalog.hpp"
#include "spec/spec.hpp"

namespace gpuvet::spec {
namespace {

core::Result<Spec> parse(const std::string& text) { return parse_spec(text, "t.yaml", catalog::gpu_catalog()); }

std::string error_of(const std::string& text) {
  auto r = parse(text);
  EXPECT_FALSE(r.ok()) << text;
  return r.ok() ? std::string() : r.error().message;
}

TEST(SpecParser, ShortSpecTakesDefaultsFromTheCatalogue) {
  auto r = parse("gpu:\n  model: h100-sxm5-80gb\n  count: 8\n");
  ASSERT_TRUE(r.ok()) << r.error().message;
  const Spec& s = *r;
  EXPECT_EQ(s.gpu_model->value, "h100-sxm5-80gb");
  EXPECT_EQ(s.gpu_model->line, 2);
  EXPECT_EQ(s.gpu_count->value, 8);
  EXPECT_EQ(s.gpu_count->line, 3);
  ASSERT_TRUE(s.memory_gib);
  EXPECT_DOUBLE_EQ(s.memory_gib->value, 80);
  EXPECT_EQ(s.memory_gib->line, 0);
  EXPECT_EQ(s.memory_gib->origin, "catalogue h100-sxm5-80gb");
  EXPECT_EQ(s.pcie_gen->value, 5);
  EXPECT_EQ(s.pcie_width->value, 16);
  ASSERT_TRUE(s.interconnect);
  EXPECT_EQ(s.interconnect->value.cls, core::InterconnectClass::nvswitch_full_mesh);  // SXM x8
  EXPECT_EQ(s.workload->value, Workload::train);
  EXPECT_TRUE(s.healthy->value);
  EXPECT_FALSE(s.numa);
  EXPECT_FALSE(s.burnin);
  EXPECT_TRUE(s.busbw.empty());
}

TEST(SpecParser, DefaultsFollowTheModel) {
  auto four = parse("gpu: {model: h100-sxm5-80gb, count: 4}\n");
  ASSERT_TRUE(four.ok());
  EXPECT_EQ(four->interconnect->value.cls, core::InterconnectClass::nvlink_direct_full_mesh);
  EXPECT_TRUE(four->interconnect->value.any_nvlink_mesh);
  auto l40s = parse("gpu: {model: l40s-48gb, count: 8}\n");
  ASSERT_TRUE(l40s.ok());
  EXPECT_EQ(l40s->interconnect->value.cls, core::InterconnectClass::pcie_only);
  EXPECT_EQ(l40s->workload->value, Workload::infer);
  EXPECT_EQ(l40s->pcie_gen->value, 4);
  auto geforce = parse("gpu: {model: rtx-4090-24gb, count: 8}\n");
  ASSERT_TRUE(geforce.ok());
  const auto& batch = geforce->same_batch->value;
  EXPECT_EQ(std::count(batch.begin(), batch.end(), "board_part_number"), 0);  // GeForce reports none
}

TEST(SpecParser, WrittenValuesWinOverDefaults) {
  auto r = parse("gpu: {model: h100-sxm5-80gb, count: 8, memory_gib: 94}\ninterconnect: pcie\nworkload: infer\n"
                 "numa: {nodes: 2}\n");
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_DOUBLE_EQ(r->memory_gib->value, 94);
  EXPECT_EQ(r->interconnect->value.cls, core::InterconnectClass::pcie_only);
  EXPECT_EQ(r->interconnect->line, 2);
  EXPECT_EQ(r->workload->value, Workload::infer);
  EXPECT_EQ(r->numa->value.gpus_per_node, 4);  // 8 GPUs over 2 nodes
}

TEST(SpecParser, FullSpecSections) {
  auto r = parse(
      "spec_version: 1\nname: x\ngpu: {model: a100-sxm4-80gb, count: 8}\nnics: {count: 8, min_rate_gbit_s: 200}\n"
      "bandwidth: {h2d_gbps: auto, p2p_gbps: 180}\nvram: {}\ncollectives:\n  all_reduce: {2: auto, all: 200}\n"
      "  scaling_efficiency: 0.8\nburnin: {duration: 1h30m, throttle_max_fraction: 0.02, xid_max: 1}\n");
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->nics->value.count, 8);
  EXPECT_FALSE(r->h2d_gbps->value.has_value());  // auto
  EXPECT_DOUBLE_EQ(*r->p2p_gbps->value, 180);
  EXPECT_DOUBLE_EQ(r->vram_min_fraction->value, 0.95);
  ASSERT_EQ(r->busbw.size(), 2u);
  EXPECT_EQ(r->busbw[0].op, "all_reduce");
  EXPECT_EQ(r->busbw[0].gpus, 2);
  EXPECT_EQ(r->busbw[1].gpus, 0);
  EXPECT_DOUBLE_EQ(*r->busbw[1].gbps, 200);
  EXPECT_EQ(r->busbw[1].line, 8);
  EXPECT_DOUBLE_EQ(r->burnin->value.duration_s, 5400);
  EXPECT_EQ(r->burnin->value.xid_max, 1);
}

// burnin.traffic: the soak loads the links beside the GEMMs; a word or a list, with its share and floor.
TEST(SpecParser, BurninTrafficIsReadWithItsShareAndFloor) {
  auto r = parse("burnin:\n  duration: 4h\n  traffic: all\n  traffic_share: 0.25\n  busbw_hot_min_fraction: 0.85\n");
  ASSERT_TRUE(r.ok()) << r.error().message;
  const auto& b = r->burnin->value;
  EXPECT_EQ(core::traffic_kinds_text(b.traffic.kinds), "all_reduce,all_to_all,copies");
  EXPECT_DOUBLE_EQ(b.traffic.share, 0.25);
  EXPECT_DOUBLE_EQ(b.busbw_hot_min_fraction, 0.85);
  auto list = parse("burnin:\n  duration: 4h\n  traffic: [copies, all_to_all]\n");
  ASSERT_TRUE(list.ok()) << list.error().message;
  EXPECT_EQ(core::traffic_kinds_text(list->burnin->value.traffic.kinds), "all_to_all,copies");
  auto none = parse("burnin:\n  duration: 4h\n");
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(none->burnin->value.traffic.on()) << "no traffic unless the spec asks for it";
  EXPECT_DOUBLE_EQ(none->burnin->value.busbw_hot_min_fraction, 0.9);
}

TEST(SpecParser, BadBurninTrafficIsRefusedNamingTheLine) {
  EXPECT_EQ(error_of("burnin:\n  duration: 4h\n  traffic: nccl\n"),
            "t.yaml: line 3: burnin.traffic: expected all_reduce, all_to_all, copies, all or none, or a list such as "
            "[all_reduce, copies], got 'nccl'");
  EXPECT_NE(error_of("burnin:\n  duration: 4h\n  traffic: [all_reduce, all]\n").find("line 3: burnin.traffic: expected"),
            std::string::npos);
  EXPECT_NE(error_of("burnin:\n  duration: 4h\n  traffic: {a: 1}\n").find("line 3: burnin.traffic: expected"), std::string::npos);
  EXPECT_NE(error_of("burnin:\n  duration: 4h\n  traffic: all\n  traffic_share: 0\n")
                .find("line 4: burnin.traffic_share: expected a share of the time from 0.01 to 1, got '0'"),
            std::string::npos);
  EXPECT_NE(error_of("burnin:\n  duration: 4h\n  traffic_share: 0.5\n").find("line 3: burnin.traffic_share: needs burnin.traffic"),
            std::string::npos);
  EXPECT_NE(error_of("burnin:\n  duration: 4h\n  traffic: copies\n  busbw_hot_min_fraction: 0.9\n")
                .find("line 4: burnin.busbw_hot_min_fraction: needs collective traffic"),
            std::string::npos);
}

TEST(SpecParser, ErrorsNameTheLine) {
  EXPECT_EQ(error_of("gpu:\n  model: h100-sxm5-80gb\n  cuont: 8\n"),
            "t.yaml: line 3: gpu.cuont: unknown key (expected one of: model, count, memory_gib, same_batch, healthy)");
  EXPECT_EQ(error_of("gpu:\n  count: eight\n"), "t.yaml: line 2: gpu.count: expected a whole number from 1 to 1024, got 'eight'");
  EXPECT_NE(error_of("name: x\ngpu:\n  model: h900\n").find("t.yaml: line 3: gpu.model: 'h900' is not a catalogue id"),
            std::string::npos);
  EXPECT_EQ(error_of("\n\ninterconnect: infiniband\n").substr(0, 33), "t.yaml: line 3: interconnect: exp");
  EXPECT_EQ(error_of("workload: training\n"), "t.yaml: line 1: workload: expected train or infer, got 'training'");
  EXPECT_EQ(error_of("pcie: {width: 12}\n"), "t.yaml: line 1: pcie.width: expected 1, 2, 4, 8, 16 or 32, got 12");
  EXPECT_EQ(error_of("burnin:\n  duration: forever\n"),
            "t.yaml: line 2: burnin.duration: expected a duration from 1m to 30 days, like 4h, 30m or 1h30m, got 'forever'");
  EXPECT_EQ(error_of("gpus: 8\n").substr(0, 38), "t.yaml: line 1: gpus: unknown key (exp");
  EXPECT_NE(error_of("collectives:\n  all_reduce: {1: auto}\n").find("line 2: collectives.all_reduce: expected a whole number from 2"),
            std::string::npos);
  EXPECT_NE(error_of("collectives:\n  allreduce: {2: auto}\n").find("line 2: collectives.allreduce: unknown key"), std::string::npos);
  EXPECT_EQ(error_of("bandwidth: {h2d_gbps: -3}\n"),
            "t.yaml: line 1: bandwidth.h2d_gbps: expected a bandwidth in GB/s above 0, or auto (the envelope decides), got '-3'");
  EXPECT_EQ(error_of("gpu:\n  same_batch: [vbios, colour]\n").substr(0, 60),
            "t.yaml: line 2: gpu.same_batch: unknown attribute 'colour' (");
  EXPECT_EQ(error_of("spec_version: 2\n"), "t.yaml: line 1: spec_version: this gpuvet reads version 1");
  EXPECT_EQ(error_of(""), "t.yaml: line 1: the spec is empty (start from `gpuvet spec init --template NAME`)");
  EXPECT_NE(error_of("gpu: [\n").find("t.yaml: line 2: not valid YAML"), std::string::npos);
  EXPECT_EQ(error_of("- 1\n- 2\n"), "t.yaml: line 1: : expected a mapping of keys (key: value)");
}

}  // namespace
}  // namespace gpuvet::spec
