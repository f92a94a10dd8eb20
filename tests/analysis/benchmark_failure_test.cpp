// Failed, empty, partial and multi-node benchmark runs (issue 17): a failed measurement is a
// failing finding, a run with no result is incomplete, a multi-node run is judged on its NICs.
#include <gtest/gtest.h>

#include "analysis/judge.hpp"
#include "core/verdict.hpp"
#include "test_bandwidth.hpp"
#include "test_collectives.hpp"
#include "test_machines.hpp"

namespace gpuvet::analysis::testing {
namespace {

const core::Finding* find_code(const core::Assessment& a, const std::string& code) {
  for (const auto& f : a.findings) {
    if (f.code == code) return &f;
  }
  return nullptr;
}

std::string evidence(const core::Finding& f, const std::string& key) {
  for (const auto& [k, v] : f.evidence) {
    if (k == key) return v;
  }
  return {};
}

TEST(BenchmarkFailed, NvbandwidthDataCheckFailureFailsAndQuotesTheLine) {
  auto run = nvbandwidth_run(2, "NVIDIA A100-SXM4-80GB", 25, 200);
  run.failures = {"line 18: Invalid value when checking the pattern at 0x70a640000000",
                  "line 20: ASSERT in expression h_errorFlag == 0 in void memcmpPatternHelper"};
  const auto a = judge_bandwidth_runs({run});
  const auto* f = find_code(a, "benchmark_failed");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, core::Severity::fail);
  EXPECT_NE(f->message.find("data check"), std::string::npos) << f->message;
  EXPECT_NE(f->message.find("ASSERT in expression"), std::string::npos) << f->message;
  EXPECT_NE(evidence(*f, "check").find("Xid"), std::string::npos);
}

TEST(BenchmarkFailed, NcclInitFailureFailsAndRunWithoutRowsIsNotJudged) {
  auto r = run("all_reduce", 2, 0);
  r.rows.clear();
  r.failures = {"line 7: node-a: Test NCCL failure common.cu:1005 'unhandled system error'"};
  const auto a = judge_runs({r});
  const auto* f = find_code(a, "benchmark_failed");
  ASSERT_NE(f, nullptr);
  EXPECT_NE(f->message.find("before its first result row"), std::string::npos) << f->message;
  EXPECT_NE(evidence(*f, "check").find("NCCL_DEBUG=INFO"), std::string::npos);
  EXPECT_NE(find_code(a, "collective_not_judged"), nullptr);
  EXPECT_EQ(core::verdict_of(a.findings, a.unverified), core::Verdict::fail);
}

TEST(BenchmarkCoverage, HangWithoutRowsIsIncompleteAndLogsAloneMustJudgeSomething) {
  auto hang = run("all_reduce", 2, 0);
  hang.rows.clear();
  auto a = judge_runs({hang});
  judge_benchmark_coverage({hang}, {}, true, a);
  ASSERT_EQ(a.unverified.size(), 1U);
  EXPECT_NE(a.unverified[0].find("no result row"), std::string::npos);

  // Only tiny sizes and no machine: nothing compared with an envelope, so no pass.
  const auto tiny = run("all_reduce", 4, 0.01, 2ull << 20, "Tesla V100-PCIE-16GB");
  auto t = judge_runs({tiny});
  judge_benchmark_coverage({tiny}, {}, false, t);
  ASSERT_EQ(t.unverified.size(), 1U);
  EXPECT_NE(t.unverified[0].find("the machine is not judged"), std::string::npos);
  // A judged run is enough to pass on logs alone; with a machine described nothing is added.
  const auto good = run("all_reduce", 8, 470);
  auto g = judge_runs({good});
  judge_benchmark_coverage({good}, {}, false, g);
  EXPECT_TRUE(g.unverified.empty());
}

TEST(BenchmarkCoverage, SeparateOneProcessRunsAreNamedOnce) {
  auto a1 = run("all_reduce", 1, 0);
  a1.separate_runs = 2;
  a1.source = "nccl-tests run 1 of 2 (f.txt)";
  auto a2 = a1;
  a2.source = "nccl-tests run 2 of 2 (f.txt)";
  const auto a = judge_runs({a1, a2});
  int count = 0;
  for (const auto& f : a.findings) count += f.code == "nccl_tests_not_joined" ? 1 : 0;
  EXPECT_EQ(count, 1);
  EXPECT_NE(find_code(a, "nccl_tests_not_joined")->message.find("f.txt: 2 separate runs"), std::string::npos);
}

TEST(MultiNodeLogs, JudgedAgainstExpectedNicsWithLikelyCauses) {
  auto slow = run("all_reduce", 16, 6.07);
  slow.nodes = 2;
  Expectations expect;
  expect.nic_count = 8;
  expect.nic_gbit_s = 400;
  core::Assessment a;
  judge_multi_node_collectives({slow}, core::Machine{}, expect, catalog(), a);
  const auto* f = find_code(a, "busbw_below_expected");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, core::Severity::fail);
  EXPECT_NE(evidence(*f, "basis").find("8 NICs x 400 Gb/s"), std::string::npos) << evidence(*f, "basis");
  EXPECT_NE(evidence(*f, "likely cause").find("GPUDirect RDMA off"), std::string::npos);
  ASSERT_EQ(a.collectives.size(), 1U);
  EXPECT_NEAR(*a.collectives[0].expected_busbw_gbps, 8 * 400 / 8.0 * 0.92, 1e-9);

  // One NIC for eight GPUs: the bound is one NIC, and the cause is named.
  expect.nic_count = 1;
  core::Assessment one;
  auto fine = run("all_reduce", 16, 45.0);
  fine.nodes = 2;
  judge_multi_node_collectives({fine}, core::Machine{}, expect, catalog(), one);
  EXPECT_EQ(find_code(one, "busbw_below_expected"), nullptr);
  EXPECT_NEAR(*one.collectives[0].expected_busbw_gbps, 400 / 8.0 * 0.92, 1e-9);
}

TEST(MultiNodeLogs, WithoutNicsOnlyBelowOneHundredGbitIsAWarning) {
  auto slow = run("all_reduce", 16, 6.07);
  slow.nodes = 2;
  core::Assessment a;
  judge_multi_node_collectives({slow}, core::Machine{}, Expectations{}, catalog(), a);
  const auto* f = find_code(a, "busbw_below_expected");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, core::Severity::warn);
  EXPECT_NE(f->message.find("one 100 Gb/s link"), std::string::npos);
  auto ok = run("all_reduce", 16, 300);
  ok.nodes = 2;
  core::Assessment b;
  judge_multi_node_collectives({ok}, core::Machine{}, Expectations{}, catalog(), b);
  ASSERT_NE(find_code(b, "collective_not_judged"), nullptr);
  EXPECT_NE(find_code(b, "collective_not_judged")->message.find("--expect-nic"), std::string::npos);
}

}  // namespace
}  // namespace gpuvet::analysis::testing
