// gpuvet analyze on benchmark logs end to end (issue 17): a failed run fails, a run with no result
// is incomplete, device lines make the GPU list, multi-node logs are judged on --expect-nic.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli_runner.hpp"

using gpuvet::testing::fixture;
using gpuvet::testing::run_cli;
using nlohmann::json;

namespace {

bool has_code(const json& report, const std::string& code) {
  for (const auto& f : report["findings"]) {
    if (f["code"] == code) return true;
  }
  return false;
}

const json* finding(const json& report, const std::string& code) {
  for (const auto& f : report["findings"]) {
    if (f["code"] == code) return &f;
  }
  return nullptr;
}

TEST(AnalyzeBenchmarkLogs, NvbandwidthPatternAssertFailsWithTheEightGpus) {
  const auto r = run_cli(
      {"analyze", "--json", fixture("corpus/nvbandwidth/8x-a100-sxm4-80gb-d2d-read-ce-assert-pattern-v0.7-nvbandwidth-34.txt")});
  ASSERT_EQ(r.exit_code, 1) << r.err;
  const auto j = json::parse(r.out);
  ASSERT_EQ(j["gpus"].size(), 8U);
  EXPECT_EQ(j["gpus"][7]["pci_bus_id"], "0000:9e:00.0");
  const auto* f = finding(j, "benchmark_failed");
  ASSERT_NE(f, nullptr);
  EXPECT_NE((*f)["message"].get<std::string>().find("ASSERT in expression h_errorFlag == 0"), std::string::npos);
  EXPECT_EQ(j["verdict"], "fail");
}

TEST(AnalyzeBenchmarkLogs, SrunInitFailureFailsAndTextQuotesTheLine) {
  const auto r = run_cli({"analyze", fixture("written-logs/nccl-written-srun-init-unhandled-system-error.txt")});
  ASSERT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.out.find("benchmark_failed"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("unhandled system error"), std::string::npos) << r.out;
}

TEST(AnalyzeBenchmarkLogs, HangWithRankLinesIsIncompleteWithTheGpus) {
  const auto r = run_cli(
      {"analyze", "--json", fixture("corpus/nccl/2node-2x-a100-sxm4-80gb-mpirun-nccl-info-interleaved-hang-nccl-tests-244.txt")});
  ASSERT_EQ(r.exit_code, 3) << r.err;
  const auto j = json::parse(r.out);
  ASSERT_EQ(j["gpus"].size(), 2U);
  EXPECT_EQ(j["gpus"][1]["name"], "NVIDIA A100-SXM4-80GB");
  ASSERT_FALSE(j["unverified"].empty());
  EXPECT_NE(j["unverified"][0].get<std::string>().find("no result row"), std::string::npos);
}

TEST(AnalyzeBenchmarkLogs, ProcessesNotJoinedAreNamed) {
  const auto r = run_cli({"analyze", "--json", fixture("written-logs/nccl-written-mpirun-without-mpi-2-processes-interleaved.txt")});
  ASSERT_EQ(r.exit_code, 3) << r.err;  // a warning, and nothing judged
  const auto j = json::parse(r.out);
  EXPECT_TRUE(has_code(j, "nccl_tests_not_joined"));
  EXPECT_EQ(j["collectives"].size(), 2U);
}

TEST(AnalyzeBenchmarkLogs, MultiNodeJudgedOnExpectNicOrWarnedBelowOneLink) {
  const auto log = fixture("written-logs/nccl-written-2node-16x-h100-allreduce-6gbps.txt");
  const auto with = run_cli({"analyze", "--json", "--expect-nic", "8x400", log});
  ASSERT_EQ(with.exit_code, 1) << with.err;
  const auto j = json::parse(with.out);
  const auto* f = finding(j, "busbw_below_expected");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ((*f)["severity"], "fail");
  // Each node's Rank lines show 8 H100 SXM: an HGX board, whose own ring (367 GB/s) is just below
  // the NICs' 8 x 400 Gb/s x 0.92 = 368 GB/s, so the node bounds the run (issue 17, nccl-tests#276).
  EXPECT_NEAR(j["collectives"][0]["expected_busbw_gbps"].get<double>(), 367.0, 1e-9);
  EXPECT_NE(j["collectives"][0]["expected_basis"].get<std::string>().find("inferred from the log: 2 nodes (node1, node2)"),
            std::string::npos);
  EXPECT_NE(with.out.find("GPUDirect RDMA off"), std::string::npos);

  const auto without = run_cli({"analyze", "--json", log});
  ASSERT_EQ(without.exit_code, 3) << without.err;  // a warning, and nothing compared with an envelope
  const auto w = json::parse(without.out);
  ASSERT_NE(finding(w, "busbw_below_expected"), nullptr);
  EXPECT_EQ((*finding(w, "busbw_below_expected"))["severity"], "warn");

  const auto bad = run_cli({"analyze", "--expect-nic", "eight", log});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("--expect-nic eight: expected COUNTxRATE"), std::string::npos) << bad.err;
}

TEST(AnalyzeBenchmarkLogs, MultiNodeJudgedOnTheNicsIbstatShows) {
  const auto r = run_cli({"analyze", "--json", fixture("written-logs/ibstat-written-2x400-one-down.txt"),
                          fixture("written-logs/nccl-written-2node-16x-h100-allreduce-6gbps.txt")});
  ASSERT_EQ(r.exit_code, 1) << r.err;
  const auto j = json::parse(r.out);
  EXPECT_TRUE(has_code(j, "nic_down"));  // mlx5_1 is Down
  ASSERT_NE(finding(j, "busbw_below_expected"), nullptr);
  // One ACTIVE 400 Gb/s port: 400 / 8 x 0.92.
  EXPECT_NEAR(j["collectives"][0]["expected_busbw_gbps"].get<double>(), 46.0, 1e-9);
  EXPECT_NE(r.out.find("one NIC for several GPUs"), std::string::npos);
}

TEST(AnalyzeBenchmarkLogs, OutOfBoundsFailedAndSumLinesOnly) {
  const auto oob = run_cli({"analyze", "--json", fixture("written-logs/nccl-written-out-of-bounds-failed.txt")});
  ASSERT_EQ(oob.exit_code, 1) << oob.err;
  EXPECT_TRUE(has_code(json::parse(oob.out), "benchmark_failed"));
  const auto sums = run_cli({"analyze", "--json", fixture("written-logs/nvbandwidth-written-sum-lines-only-grep.txt")});
  ASSERT_EQ(sums.exit_code, 3) << sums.err;
  EXPECT_EQ(json::parse(sums.out)["bandwidth"].size(), 3U);
}

}  // namespace
