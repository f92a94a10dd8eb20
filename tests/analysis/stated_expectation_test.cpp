// What the buyer stated decides the severity: --expect-model and --expect-same-batch fail what
// they promised, the same differences without them stay warnings, and a promise the input cannot
// check leaves the verdict incomplete.
#include <gtest/gtest.h>

#include "core/verdict.hpp"
#include "test_machines.hpp"

namespace gpuvet::analysis::testing {
namespace {

Expectations sold_as(const std::string& id) {
  Expectations e;
  e.model_id = id;
  return e;
}

Expectations one_batch() {
  Expectations e;
  e.same_batch = true;
  return e;
}

// Four H100s with everything the batch check reads; GPU 2 runs other firmware.
core::Machine mixed_firmware() {
  auto m = machine(4, kH100);
  for (auto& g : m.gpus) {
    g.vbios = std::string("96.00.74.00.01");
    g.board_part_number = std::string("692-2G520-0200-000");
    g.memory_total_mib = std::uint64_t{81559};
  }
  m.gpus[2].vbios = std::string("96.00.61.00.01");
  return m;
}

TEST(StatedExpectations, AnotherModelThanSoldFailsNamingBoth) {
  auto m = machine(4, kA100Pcie);
  m.gpus[3].name = kA100Sxm;
  const auto a = judge(m, sold_as("a100-sxm4-80gb"));
  const auto f = with_code(a, "model_not_as_claimed");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].severity, core::Severity::fail);
  EXPECT_EQ(f[0].gpus, (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(f[0].message, "GPUs 0-2 are A100 PCIe 80GB, not the A100 SXM4 80GB that was sold (--expect-model)");
  EXPECT_EQ(core::verdict_of(a.findings, a.unverified), core::Verdict::fail);
}

TEST(StatedExpectations, ANameOutsideTheCatalogueIsNotTheModelSold) {
  const auto f = with_code(judge(machine(2, kUnknownGpu), sold_as("h100-sxm5-80gb")), "model_not_as_claimed");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_NE(f[0].message.find("NVIDIA Mystery 9000, not the H100 SXM5 80GB"), std::string::npos) << f[0].message;
}

TEST(StatedExpectations, TheModelSoldIsSilentAndUnstatedIsNotChecked) {
  EXPECT_TRUE(with_code(judge(machine(8, kH100), sold_as("h100-sxm5-80gb")), "model_not_as_claimed").empty());
  EXPECT_TRUE(with_code(judge(machine(8, kA100Pcie)), "model_not_as_claimed").empty());
}

TEST(StatedExpectations, UnreportedNameLeavesTheModelUnverified) {
  auto m = machine(2, kH100);
  m.gpus[1].name = core::Reading<std::string>::absent("not in this output");
  const auto a = judge(m, sold_as("h100-sxm5-80gb"));
  EXPECT_TRUE(with_code(a, "model_not_as_claimed").empty());
  ASSERT_EQ(a.unverified.size(), 1u);
  EXPECT_NE(a.unverified[0].find("--expect-model h100-sxm5-80gb: GPU 1 name not reported"), std::string::npos);
  EXPECT_EQ(core::verdict_of(a.findings, a.unverified), core::Verdict::incomplete);
}

TEST(StatedExpectations, MixedFirmwareWarnsUnlessOneBatchWasPromised) {
  const auto unstated = with_code(judge(mixed_firmware()), "mixed_inventory");
  ASSERT_EQ(unstated.size(), 1u);
  EXPECT_EQ(unstated[0].severity, core::Severity::warn);

  const auto a = judge(mixed_firmware(), one_batch());
  const auto stated = with_code(a, "mixed_inventory");
  ASSERT_EQ(stated.size(), 1u);
  EXPECT_EQ(stated[0].severity, core::Severity::fail);
  EXPECT_EQ(stated[0].gpus, std::vector<int>{2});
  EXPECT_NE(stated[0].message.find("--expect-same-batch"), std::string::npos) << stated[0].message;
  EXPECT_TRUE(a.unverified.empty());
  EXPECT_EQ(core::verdict_of(a.findings, a.unverified), core::Verdict::fail);
}

TEST(StatedExpectations, OneBatchPromiseLeavesSettingsAsWarnings) {
  auto m = mixed_firmware();
  m.gpus[2].vbios = std::string("96.00.74.00.01");
  m.gpus[1].power_limit_w = 700.0;
  m.gpus[0].power_limit_w = 600.0;
  m.gpus[2].power_limit_w = 700.0;
  m.gpus[3].power_limit_w = 700.0;
  const auto f = with_code(judge(m, one_batch()), "mixed_inventory");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].severity, core::Severity::warn);  // a setting, not the batch
}

TEST(StatedExpectations, UnreportedFirmwareLeavesTheBatchUnverified) {
  auto m = mixed_firmware();
  m.gpus[2].vbios = core::Reading<std::string>::absent("N/A");
  const auto a = judge(m, one_batch());
  ASSERT_EQ(a.unverified.size(), 1u);
  EXPECT_EQ(a.unverified[0], "--expect-same-batch: VBIOS of GPU 2 not reported (N/A)");
  EXPECT_EQ(core::verdict_of(a.findings, a.unverified), core::Verdict::incomplete);
}

}  // namespace
}  // namespace gpuvet::analysis::testing
