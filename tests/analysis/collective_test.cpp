// Collective runs judged against the envelope of an NVSwitch machine.
#include <gtest/gtest.h>

#include "analysis/judge.hpp"
#include "test_collectives.hpp"
#include "test_machines.hpp"

namespace gpuvet::analysis::testing {
namespace {

TEST(Collectives, HealthyH100AllReduceAtNvlsRatePasses) {
  const auto a = judge_runs({run("all_reduce", 8, 478)});
  ASSERT_EQ(a.collectives.size(), 1u);
  // 450 GB/s NVLink per H100 x 480/450 (NVLS all_reduce on 8 GPUs).
  EXPECT_NEAR(*a.collectives[0].expected_busbw_gbps, 480.0, 0.01);
  EXPECT_NE(a.collectives[0].expected_basis.find("inferred from the log"), std::string::npos);
  EXPECT_TRUE(a.findings.empty()) << a.findings[0].message;
}

TEST(Collectives, RingCollectivesUseTheRingEfficiency) {
  const auto a = judge_runs({run("all_gather", 8, 362)});
  EXPECT_NEAR(*a.collectives[0].expected_busbw_gbps, 367.0, 0.01);
  EXPECT_TRUE(a.findings.empty());
  // NVLS only engages above 4 GPUs: a 4-rank all_reduce on the same board expects the ring rate.
  auto m = machine(8, kH100);
  m.links = nv_mesh(8, 18);
  auto on_machine = judge(m);
  judge_collectives({run("all_reduce", 4, 362)}, m, catalog(), on_machine);
  ASSERT_TRUE(on_machine.collectives[0].expected_busbw_gbps.known()) << on_machine.collectives[0].expected_basis;
  EXPECT_NEAR(*on_machine.collectives[0].expected_busbw_gbps, 367.0, 0.01);
}

TEST(Collectives, SlowAllReduceFailsAndSaysByHowMuch) {
  const auto a = judge_runs({run("all_reduce", 8, 300)});
  const auto f = with_code(a, "busbw_below_expected");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].severity, core::Severity::fail);
  EXPECT_NE(f[0].message.find("62 %"), std::string::npos) << f[0].message;
  EXPECT_EQ(with_code(judge_runs({run("all_reduce", 8, 420)}), "busbw_below_expected")[0].severity,
            core::Severity::warn);
}

TEST(Collectives, WrongElementsFail) {
  auto r = run("all_reduce", 8, 478);
  r.rows[2].out_of_place.wrong = std::int64_t{12};
  const auto f = with_code(judge_runs({r}), "collective_wrong_results");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].severity, core::Severity::fail);
}

TEST(Collectives, SmallSweepsMultiNodeAndPcieAreNotJudged) {
  EXPECT_EQ(with_code(judge_runs({run("all_reduce", 8, 200, 256ull << 20)}), "collective_not_judged").size(), 1u);
  auto multi = run("all_reduce", 16, 100);
  multi.nodes = 2;
  EXPECT_EQ(with_code(judge_runs({multi}), "collective_not_judged").size(), 1u);
  EXPECT_EQ(with_code(judge_runs({run("all_reduce", 8, 20, 8ull << 30, "NVIDIA GeForce RTX 4090")}),
                      "collective_not_judged").size(),
            1u);
  EXPECT_TRUE(with_code(judge_runs({run("all_reduce", 8, 20, 8ull << 30, "NVIDIA GeForce RTX 4090")}),
                        "busbw_below_expected").empty());
}

TEST(Collectives, DescribedMachineGivesTheEnvelope) {
  auto m = machine(8, kH100);
  m.links = nv_mesh(8, 18);
  auto a = judge(m);
  judge_collectives({run("all_reduce", 8, 478)}, m, catalog(), a);
  ASSERT_EQ(a.collectives.size(), 1u);
  EXPECT_NEAR(*a.collectives[0].expected_busbw_gbps, 480.0, 0.01);
  EXPECT_EQ(a.collectives[0].expected_basis.find("inferred"), std::string::npos);
}

}  // namespace
}  // namespace gpuvet::analysis::testing
