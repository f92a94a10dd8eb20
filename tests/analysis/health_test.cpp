// Row remapping, retired pages and active clocks-event reasons.
#include <gtest/gtest.h>

#include "test_machines.hpp"

namespace gpuvet::analysis::testing {
namespace {

TEST(PcieReplays, ACountInAStaticPasteWarnsAndSaysItIsNoRate) {
  auto m = machine(8, kH100);
  EXPECT_TRUE(with_code(judge(m), "pcie_replays").empty());  // unknown is not judged
  m.gpus[0].pcie.replays = 7;  // the 8x H100 -q fixture's GPU 0
  m.gpus[1].pcie.replays = 0;
  const auto f = with_code(judge(m), "pcie_replays");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].severity, core::Severity::warn);
  EXPECT_EQ(f[0].gpus, (std::vector<int>{0}));
  EXPECT_NE(f[0].message.find("GPU 0 shows 7 PCIe replays since the last reset"), std::string::npos) << f[0].message;
  EXPECT_NE(f[0].message.find("not the rate"), std::string::npos);
}

using core::Severity;

TEST(Health, RemapPendingFails) {
  auto m = machine(2, kA100Sxm);
  m.gpus[1].memory_health.remapped_rows_correctable = 1;
  m.gpus[1].memory_health.remap_pending = true;
  const auto a = judge(m);
  const auto f = with_code(a, "row_remap_pending");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].severity, Severity::fail);
  EXPECT_EQ(f[0].gpus, std::vector<int>{1});
  EXPECT_TRUE(with_code(a, "remapped_rows").empty());  // pending is the finding, not the count
}

TEST(Health, RemapFailureFails) {
  auto m = machine(1, kA100Sxm);
  m.gpus[0].memory_health.remap_failure = true;
  const auto f = with_code(judge(m), "row_remap_failure");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].severity, Severity::fail);
}

TEST(Health, CorrectableRemapsWithNothingPendingAreInfo) {
  auto m = machine(2, kA100Sxm);
  m.gpus[0].memory_health.remapped_rows_correctable = 2;
  m.gpus[0].memory_health.remap_pending = false;
  m.gpus[1].memory_health.remapped_rows_correctable = 0;
  const auto a = judge(m);
  const auto f = with_code(a, "remapped_rows");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].severity, Severity::info);
  EXPECT_EQ(f[0].gpus, std::vector<int>{0});
  EXPECT_EQ(core::worst(a.findings), Severity::info);
}

TEST(Health, RetiredPagesWarnOrFail) {
  auto m = machine(2, kV100);
  m.gpus[0].memory_health.retired_pages_sbe = 2;
  m.gpus[0].memory_health.retired_pages_pending = false;
  m.gpus[1].memory_health.retired_pages_dbe = 1;
  m.gpus[1].memory_health.retired_pages_pending = true;
  const auto f = with_code(judge(m), "retired_pages");
  ASSERT_EQ(f.size(), 2u);
  EXPECT_EQ(f[0].severity, Severity::warn);
  EXPECT_EQ(f[1].severity, Severity::fail);
}

TEST(Health, UnknownCountersAreSilent) {
  const auto a = judge(machine(4, kA100Sxm));
  for (const char* code : {"row_remap_pending", "row_remap_failure", "retired_pages", "remapped_rows", "throttle_active"}) {
    EXPECT_TRUE(with_code(a, code).empty()) << code;
  }
}

TEST(Throttle, PowerCapIsInfoHardwareSlowdownWarns) {
  auto m = machine(4, kH100);
  m.gpus[0].clocks_event_reasons = std::vector<std::string>{"SW Power Cap"};
  m.gpus[1].clocks_event_reasons = std::vector<std::string>{"SW Power Cap"};
  m.gpus[2].clocks_event_reasons = std::vector<std::string>{"HW Slowdown", "HW Thermal Slowdown"};
  m.gpus[3].clocks_event_reasons = std::vector<std::string>{"GPU Idle"};
  const auto f = with_code(judge(m), "throttle_active");
  ASSERT_EQ(f.size(), 2u);
  EXPECT_EQ(f[0].severity, Severity::warn);
  EXPECT_EQ(f[0].gpus, std::vector<int>{2});
  EXPECT_EQ(f[1].severity, Severity::info);
  EXPECT_EQ(f[1].gpus, (std::vector<int>{0, 1}));
  EXPECT_EQ(f[1].message, "GPUs 0, 1 report clocks held back: SW Power Cap");
}

}  // namespace
}  // namespace gpuvet::analysis::testing
