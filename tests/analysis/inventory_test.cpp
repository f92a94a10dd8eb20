// GPUs missing and GPUs that are not all alike.
#include <gtest/gtest.h>

#include "test_machines.hpp"

namespace gpuvet::analysis::testing {
namespace {

using core::Severity;

TEST(GpuMissing, AttachedMoreThanReportedFails) {
  auto m = machine(8, kH100);
  m.gpus.erase(m.gpus.begin() + 6, m.gpus.end());
  const auto f = with_code(judge(m), "gpu_missing");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].severity, Severity::fail);
  // GPUs 0-5 are listed: which two are gone cannot be told from indices a driver renumbers.
  EXPECT_TRUE(f[0].gpus.empty());
  EXPECT_EQ(f[0].message, "8 GPUs are attached but only 6 are reported");
  // A gap in the indices names the GPU.
  auto gap = machine(8, kH100);
  gap.gpus.erase(gap.gpus.begin() + 3);
  EXPECT_EQ(with_code(judge(gap), "gpu_missing")[0].gpus, (std::vector<int>{3}));
}

TEST(GpuMissing, TrimmedInputOnlyWarns) {
  auto m = machine(8, kH100);
  m.gpus.erase(m.gpus.begin() + 2, m.gpus.begin() + 7);  // GPUs 0, 1, 7 remain
  m.notes.push_back("GPUs 2-6 elided in input");
  const auto f = with_code(judge(m), "gpu_missing");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].severity, Severity::warn);
  EXPECT_EQ(f[0].gpus, (std::vector<int>{2, 3, 4, 5, 6}));
  EXPECT_NE(f[0].message.find("trimmed"), std::string::npos);
}

TEST(GpuMissing, IndexGapsWithoutAttachedCountWarn) {
  auto m = machine(8, kH100);
  m.attached_gpus = core::Reading<int>::absent("nvidia-smi nvlink -s does not state it");
  m.gpus.erase(m.gpus.begin() + 2, m.gpus.begin() + 7);  // GPUs 0, 1, 7 remain
  const auto f = with_code(judge(m), "gpu_missing");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].severity, core::Severity::warn);
  EXPECT_EQ(f[0].message, "The input lists 3 GPUs but their indices run to 7: GPUs 2-6 not shown");
}

TEST(GpuMissing, IndexGapsExplainedByAnElisionAreNotMissing) {
  // nvidia-smi nvlink -s with "...." where the author cut GPUs 0-2 (corpus: azhpc-diagnostics #73).
  auto m = machine(4, kH100);
  m.attached_gpus = core::Reading<int>::absent("nvidia-smi nvlink -s does not state it");
  m.gpus.erase(m.gpus.begin(), m.gpus.begin() + 3);
  m.notes.push_back("GPUs 0-2 elided in input (\"...\" on line 1)");
  EXPECT_TRUE(with_code(judge(m), "gpu_missing").empty());
}

TEST(GpuMissing, ExpectedCountDiffers) {
  auto m = machine(4, kH100);
  Expectations e;
  e.gpu_count = 8;
  const auto f = with_code(judge(m, e), "gpu_missing");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].severity, Severity::fail);
  EXPECT_EQ(f[0].message, "Expected 8 GPUs, found 4");
  e.gpu_count = 4;
  EXPECT_TRUE(with_code(judge(m, e), "gpu_missing").empty());
}

TEST(GpuMissing, NothingToJudgeWhenAttachedUnknown) {
  auto m = machine(2, kH100);
  m.attached_gpus = core::Reading<int>::absent("not in input");
  EXPECT_TRUE(with_code(judge(m), "gpu_missing").empty());
  m.notes.push_back("output trimmed by the vendor");
  Expectations e;
  e.gpu_count = 8;
  EXPECT_TRUE(with_code(judge(m, e), "gpu_missing").empty());  // a trimmed input cannot be counted
}

TEST(MixedInventory, V100VbiosEvenSplitNamesBothGroups) {
  auto m = machine(8, kV100);
  for (int i : {0, 4, 6, 7}) m.gpus[static_cast<size_t>(i)].vbios = std::string("88.00.4F.00.09");
  for (int i : {1, 2, 3, 5}) m.gpus[static_cast<size_t>(i)].vbios = std::string("88.00.13.00.02");
  const auto f = with_code(judge(m), "mixed_inventory");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].severity, Severity::warn);
  EXPECT_EQ(f[0].gpus.size(), 8u);
  EXPECT_EQ(f[0].message,
            "GPUs differ in VBIOS: 88.00.4F.00.09 on GPUs 0, 4, 6, 7; 88.00.13.00.02 on GPUs 1-3, 5");
}

TEST(MixedInventory, MinorityIsNamed) {
  auto m = machine(8, kH100);
  for (auto& g : m.gpus) g.vbios = std::string("96.00.74.00.0D");
  m.gpus[3].vbios = std::string("96.00.5E.00.01");
  const auto f = with_code(judge(m), "mixed_inventory");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].gpus, std::vector<int>{3});
  EXPECT_EQ(f[0].message,
            "GPU 3 differs in VBIOS from the rest: 96.00.5E.00.01 on GPU 3 (the other 7 have 96.00.74.00.0D)");
}

TEST(MixedInventory, DifferentModelFailsNamingOddGpus) {
  auto m = machine(8, kA100Sxm);
  m.gpus[6].name = kA100Pcie;
  m.gpus[7].name = kA100Pcie;
  for (auto& g : m.gpus) g.vbios = std::string("92.00.25.00.08");
  m.gpus[7].vbios = std::string("92.00.36.00.01");  // differs, but only against its own model
  const auto f = with_code(judge(m), "mixed_inventory");
  ASSERT_EQ(f.size(), 2u);
  EXPECT_EQ(f[0].severity, Severity::fail);
  EXPECT_EQ(f[0].gpus, (std::vector<int>{6, 7}));
  EXPECT_EQ(f[1].severity, Severity::warn);
  EXPECT_EQ(f[1].gpus.size(), 2u);  // 6 and 7 split evenly within the PCIe model
}

TEST(MixedInventory, SettingsDiffer) {
  auto m = machine(4, kH100);
  for (auto& g : m.gpus) {
    g.power_limit_w = 700.0;
    g.ecc_enabled = true;
    g.memory_total_mib = std::uint64_t{81559};
  }
  m.gpus[1].power_limit_w = 699.9;  // same to the watt
  m.gpus[2].ecc_enabled = false;
  const auto f = with_code(judge(m), "mixed_inventory");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].gpus, std::vector<int>{2});
  EXPECT_NE(f[0].message.find("ECC mode"), std::string::npos);
}

TEST(MixedInventory, UnknownValuesAreNotCompared) {
  auto m = machine(4, kH100);
  m.gpus[0].vbios = std::string("96.00.74.00.0D");
  m.gpus[1].vbios = std::string("96.00.74.00.0D");  // 2 and 3 unknown: nothing differs
  m.gpus[2].mig_enabled = true;         // the only one known
  EXPECT_TRUE(with_code(judge(m), "mixed_inventory").empty());
}

}  // namespace
}  // namespace gpuvet::analysis::testing
