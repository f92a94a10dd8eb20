// Memory below what was advertised: catalogue model and --expect-memory.
#include <gtest/gtest.h>

#include "test_machines.hpp"

namespace gpuvet::analysis::testing {
namespace {

core::Machine one(const std::string& name, std::uint64_t mib) {
  auto m = machine(1, name);
  m.gpus[0].memory_total_mib = mib;
  return m;
}

TEST(Memory, FortyGibOnEightyGbModelFails) {
  const auto f = with_code(judge(one(kA100Sxm, 40960)), "memory_below_advertised");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].severity, core::Severity::fail);
  EXPECT_EQ(f[0].gpus, std::vector<int>{0});
  EXPECT_NE(f[0].message.find("40.0 GiB"), std::string::npos) << f[0].message;
}

TEST(Memory, HealthyCardsPass) {
  EXPECT_TRUE(with_code(judge(one(kH100, 81559)), "memory_below_advertised").empty());
  EXPECT_TRUE(with_code(judge(one(kRtx4090, 24564)), "memory_below_advertised").empty());
  EXPECT_TRUE(with_code(judge(one(kL40s, 46068)), "memory_below_advertised").empty());
  Expectations e;
  e.memory_gib = 80;
  EXPECT_TRUE(with_code(judge(one(kH100, 81559), e), "memory_below_advertised").empty());
}

TEST(Memory, ExpectationJudgesUnknownModel) {
  Expectations e;
  e.memory_gib = 80;
  EXPECT_EQ(with_code(judge(one(kUnknownGpu, 40960), e), "memory_below_advertised").size(), 1u);
  EXPECT_TRUE(with_code(judge(one(kUnknownGpu, 40960)), "memory_below_advertised").empty());
}

TEST(Memory, ExpectationAboveTheCard) {
  Expectations e;
  e.memory_gib = 80;  // sold as 80 GB, delivered a healthy 24 GB card
  EXPECT_EQ(with_code(judge(one(kRtx4090, 24564), e), "memory_below_advertised").size(), 1u);
}

TEST(Memory, GddrEccReservationIsAllowed) {
  auto ecc_on = one(kA6000, 46068);  // catalogue says 49140 with ECC off
  ecc_on.gpus[0].ecc_enabled = true;
  EXPECT_TRUE(with_code(judge(ecc_on), "memory_below_advertised").empty());
  auto ecc_off = ecc_on;
  ecc_off.gpus[0].ecc_enabled = false;
  EXPECT_EQ(with_code(judge(ecc_off), "memory_below_advertised").size(), 1u);
}

TEST(Memory, UnknownSizeIsSilent) {
  Expectations e;
  e.memory_gib = 80;
  EXPECT_TRUE(with_code(judge(machine(2, kH100), e), "memory_below_advertised").empty());
}

}  // namespace
}  // namespace gpuvet::analysis::testing
