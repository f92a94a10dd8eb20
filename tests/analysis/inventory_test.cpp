// GPUs missing and GPUs that are not all alike.
#include <gtest/gtest.h>

#include "core/verdict.hpp"
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
  // Every attached GPU listed: the trim left no GPU out.
  auto all = machine(2, kH100);
  all.notes.push_back("processes trimmed");
  EXPECT_TRUE(with_code(judge(all), "gpu_missing").empty());
}

// Issue 20: a topo -m cut after its first row names GPUs 1 and 2 in its header without their rows
// (Gpu::unseen): the same warning as a trimmed -q, naming them.
TEST(GpuMissing, GpusNamedButNotSeenWarnLikeATrimmedQuery) {
  auto m = machine(3, kH100);
  m.gpus[1].unseen = true;
  m.gpus[2].unseen = true;
  m.notes.push_back("t.txt: nvidia-smi topo -m is truncated: 1 of 3 GPU rows complete (GPU1..GPU2 without a complete row)");
  const auto f = with_code(judge(m), "gpu_missing");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].severity, Severity::warn);
  EXPECT_EQ(f[0].gpus, (std::vector<int>{1, 2}));
  EXPECT_EQ(f[0].message.rfind("The input shows 1 of 3 attached GPUs; it was trimmed (t.txt: nvidia-smi topo -m is truncated", 0),
            0u)
      << f[0].message;
}

// Issue 20: a verdict that rests on part of the machine is incomplete, never a pass: every input
// that names or counts GPUs it does not show gets an unverified line naming them; a failing
// finding still fails.
TEST(GpuMissing, GpusNotSeenLeaveTheVerdictIncomplete) {
  auto trimmed = machine(4, kH100);
  trimmed.gpus.erase(trimmed.gpus.begin() + 1, trimmed.gpus.end());
  trimmed.notes.push_back("q.txt: line 300: GPU 1 is cut before its Product Name and is left out (truncated)");
  const auto a = judge(trimmed);
  ASSERT_EQ(a.unverified.size(), 1u);
  EXPECT_EQ(a.unverified[0].rfind("GPUs 1-3 not seen: the input shows 1 of 4 attached GPUs (gpu_missing)", 0), 0u)
      << a.unverified[0];
  EXPECT_EQ(core::verdict_of(a.findings, a.unverified), core::Verdict::incomplete);

  auto cut_table = machine(1, kH100);
  cut_table.attached_gpus = core::Reading<int>::absent("not in the default nvidia-smi table");
  cut_table.notes.push_back("t.txt: line 11: ...: the table looks cut, and GPUs after GPU 0 would not be shown");
  const auto t = judge(cut_table);
  ASSERT_EQ(t.unverified.size(), 1u);
  EXPECT_EQ(t.unverified[0].rfind("any GPU after GPU 0 not seen: the input shows 1 GPU (gpu_missing)", 0), 0u)
      << t.unverified[0];

  auto gaps = machine(8, kH100);
  gaps.attached_gpus = core::Reading<int>::absent("nvidia-smi nvlink -s does not state it");
  gaps.gpus.erase(gaps.gpus.begin() + 2, gaps.gpus.begin() + 7);
  ASSERT_EQ(judge(gaps).unverified.size(), 1u);
  EXPECT_EQ(judge(gaps).unverified[0].rfind("GPUs 2-6 not seen: the input shows 3 GPUs", 0), 0u);

  EXPECT_TRUE(judge(machine(8, kH100)).unverified.empty());
  // Attached but not reported, with no note of a cut: the machine fails, as before.
  auto lost = machine(8, kH100);
  lost.gpus.pop_back();
  const auto l = judge(lost);
  EXPECT_TRUE(l.unverified.empty());
  EXPECT_EQ(core::verdict_of(l.findings, l.unverified), core::Verdict::fail);
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
