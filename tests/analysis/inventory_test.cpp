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

TEST(GpuMissing, ElidedGpusWithoutAttachedCountWarnLikeATrimmedQuery) {
  // nvidia-smi nvlink -s with "...." where the author cut GPUs 2-6 (fixture 8x-h800-nvlink-status-
  // 8links-gpus2-6-elided.txt): the same warning as a trimmed -q -x, naming the elided GPUs.
  auto m = machine(8, kH100);
  m.attached_gpus = core::Reading<int>::absent("nvidia-smi nvlink -s does not state it");
  m.gpus.erase(m.gpus.begin() + 2, m.gpus.begin() + 7);
  m.notes.push_back("GPUs 2-6 elided in input (\"...\" on line 19)");
  const auto f = with_code(judge(m), "gpu_missing");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].severity, Severity::warn);
  EXPECT_EQ(f[0].gpus, (std::vector<int>{2, 3, 4, 5, 6}));
  EXPECT_EQ(f[0].message,
            "The input lists 3 GPUs but their indices run to 7 (GPUs 2-6 not shown: at least 8 GPUs); it was trimmed "
            "(GPUs 2-6 elided in input (\"...\" on line 19)), so the missing ones cannot be judged");
}

TEST(GpuMissing, InputCutShortWarnsThatGpusMayBeMissing) {
  // The parsers' words for a cut paste: the default table, nvlink -R/-s, a -q.
  for (const std::string note : {"x.txt: the table is cut short; the last GPU block is incomplete",
                                 "x.txt: GPU 1 lists 2 of the 18 NVLink ports GPU 0 lists: the input looks cut after line 23",
                                 "x.txt: line 23: the input ends in a cut line (\"Link 2\") under GPU 1",
                                 "x.txt: line 17: the input ends inside the header of GPU 2 (\"GPU 2: NVIDIA GB200\")"}) {
    auto m = machine(2, kH100);
    m.attached_gpus = core::Reading<int>::absent("not in input");
    m.notes.push_back(note);
    const auto f = with_code(judge(m), "gpu_missing");
    ASSERT_EQ(f.size(), 1u) << note;
    EXPECT_EQ(f[0].severity, Severity::warn);
    EXPECT_TRUE(f[0].gpus.empty());
    EXPECT_NE(f[0].message.find("The input lists 2 GPUs; more may be attached; it was trimmed (" + note), std::string::npos);
  }
  // A file name is not a note about the input: "...-truncated.txt is nvidia-smi nvlink -R".
  auto named = machine(2, kH100);
  named.attached_gpus = core::Reading<int>::absent("not in input");
  named.notes.push_back("corpus/other/x-truncated.txt is nvidia-smi nvlink -R: it does not show which links are up");
  named.notes.push_back("x-elided.txt: GPU 0: NVLE: disabled");
  EXPECT_TRUE(with_code(judge(named), "gpu_missing").empty());
  // A topo -m cut short still names every GPU in its header: not a trimmed GPU list.
  auto topo = machine(2, kH100);
  topo.attached_gpus = core::Reading<int>::absent("not in input");
  topo.notes.push_back("nvidia-smi topo -m cut short: 1 of 2 GPU rows complete; links of GPU 1 unknown");
  EXPECT_TRUE(with_code(judge(topo), "gpu_missing").empty());
  // Every attached GPU listed: the trim left no GPU out.
  auto all = machine(2, kH100);
  all.notes.push_back("processes trimmed");
  EXPECT_TRUE(with_code(judge(all), "gpu_missing").empty());
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
  const auto f = with_code(judge(m, e), "gpu_missing");  // a trimmed input cannot be counted: no fail
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].severity, Severity::warn);
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
