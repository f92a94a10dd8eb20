// A machine description that judged nothing (NVLink traffic, firmware, a few error counters) is
// incomplete, never a pass; one that shows any judged fact is left alone.
#include <gtest/gtest.h>

#include "analysis/judge.hpp"
#include "core/verdict.hpp"
#include "test_machines.hpp"

namespace gpuvet::analysis::testing {
namespace {

// GPUs known only by name, as nvidia-smi nvlink -info or -gt d print them.
core::Machine names_only(int n) {
  core::Machine m;
  m.source = "nvidia-smi nvlink -gt d (x.txt)";
  for (int i = 0; i < n; ++i) {
    core::Gpu g;
    g.index = i;
    g.name = std::string("NVIDIA H800");
    m.gpus.push_back(g);
  }
  return m;
}

core::Assessment covered(const core::Machine& m) {
  core::Assessment a;
  a.interconnect = classify_interconnect(m, catalog());
  judge_machine_coverage(m, a);
  return a;
}

TEST(MachineCoverage, TrafficCountersAloneAreIncomplete) {
  auto m = names_only(1);
  std::vector<core::NvLinkPort> ports(8);
  for (int i = 0; i < 8; ++i) {
    ports[static_cast<size_t>(i)].link = i;
    ports[static_cast<size_t>(i)].active = true;  // it carried traffic
  }
  m.gpus[0].nvlinks = ports;
  const auto a = covered(m);
  ASSERT_EQ(a.unverified.size(), 1u);
  EXPECT_EQ(a.unverified[0],
            "the machine was not judged: nvidia-smi nvlink -gt d (x.txt) shows only the model of 1 GPU, 8 NVLink ports "
            "carrying traffic, without link speeds; its GPU count, memory, interconnect (link matrix, link speeds, "
            "NVSwitch fabric) and health are not in it; give nvidia-smi -q and nvidia-smi topo -m of the machine");
  EXPECT_EQ(core::verdict_of(a.findings, a.unverified), core::Verdict::incomplete);
  // A link speed is a judged fact (nvlink -s).
  ports[0].speed_gbps = 26.562;
  m.gpus[0].nvlinks = ports;
  EXPECT_TRUE(covered(m).unverified.empty());
  // Links up on several GPUs (dcgmi nvlink -s of 8 GPUs, 12 links up each) are judged link states.
  auto several = names_only(2);
  ports[0].speed_gbps = core::Reading<double>::absent("not shown");
  several.gpus[0].nvlinks = ports;
  EXPECT_FALSE(covered(several).unverified.empty());
  several.gpus[1].nvlinks = ports;
  EXPECT_TRUE(covered(several).unverified.empty());
}

TEST(MachineCoverage, OneLinkOfErrorCountersIsIncomplete) {
  core::Machine m;
  m.source = "dcgmi nvlink -e (x.txt)";
  core::Gpu g;
  core::NvLinkPort port;
  port.error_counters = std::vector<core::NvLinkCounter>{{"CRC FLIT Error", 0}};
  g.nvlinks = std::vector<core::NvLinkPort>{port};
  m.gpus.push_back(g);
  const auto a = covered(m);
  ASSERT_EQ(a.unverified.size(), 1u);
  EXPECT_NE(a.unverified[0].find("shows only NVLink error counters of 1 link;"), std::string::npos);
}

TEST(MachineCoverage, AnyJudgedFactIsEnough) {
  EXPECT_FALSE(covered(names_only(2)).unverified.empty());  // firmware notes, names: nothing
  auto memory = names_only(2);
  memory.gpus[1].memory_total_mib = std::uint64_t{81559};
  EXPECT_TRUE(covered(memory).unverified.empty());
  auto events = names_only(1);
  events.events.push_back(core::GpuEvent{});
  EXPECT_TRUE(covered(events).unverified.empty());
  auto counted = names_only(1);
  counted.attached_gpus = 8;
  EXPECT_TRUE(covered(counted).unverified.empty());
  // A whole machine as the test helpers build it.
  EXPECT_TRUE(covered(machine(8, kH100)).unverified.empty());
}

}  // namespace
}  // namespace gpuvet::analysis::testing
