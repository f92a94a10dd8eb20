// Benchmark logs that show a failed, cut, filtered or partial run (issue 17): read, never
// rejected; failures quoted with their line; device lines kept for the inventory.
#include <gtest/gtest.h>

#include <string>

#include "parsers/benchmark_machine.hpp"
#include "parsers/ib_status_parser.hpp"
#include "parsers/machine_merge.hpp"
#include "parsers/input_format.hpp"
#include "parsers/nccl_tests_parser.hpp"
#include "parsers/nvbandwidth_parser.hpp"
#include "parsers/p2p_test_parser.hpp"
#include "topo_test_fixtures.hpp"

namespace gpuvet::parsers {
namespace {

using testing::read_fixture;

bool any_contains(const std::vector<std::string>& lines, const std::string& text) {
  for (const auto& l : lines) {
    if (l.find(text) != std::string::npos) return true;
  }
  return false;
}

TEST(NvbandwidthFailures, PatternCheckAssertIsAFailureWithTheEightDevices) {
  const auto r = parse_nvbandwidth(
      read_fixture("corpus/nvbandwidth/8x-a100-sxm4-80gb-d2d-read-ce-assert-pattern-v0.7-nvbandwidth-34.txt"), "n.txt");
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_EQ(r->failures.size(), 2U);
  EXPECT_EQ(r->failures[0], "line 18: Invalid value when checking the pattern at 0x70a640000000");
  EXPECT_EQ(r->failures[1].rfind("line 20: ASSERT in expression h_errorFlag == 0", 0), 0U) << r->failures[1];
  ASSERT_EQ(r->device_names.size(), 8U);
  EXPECT_EQ(r->device_bus_ids[4], "0000:9b:00.0");
}

TEST(NvbandwidthVariants, QuotePrefixCutRowAndSumLinesOnly) {
  const auto quoted = read_fixture("corpus/nvbandwidth/8x-h100-h2d-d2h-sm-quoted-nvbandwidth-24.txt");
  EXPECT_EQ(detect_format(quoted), InputFormat::nvbandwidth);
  const auto q = parse_nvbandwidth(quoted, "q.txt");
  ASSERT_TRUE(q.ok()) << q.error().message;
  ASSERT_EQ(q->matrices.size(), 2U);
  EXPECT_DOUBLE_EQ(*q->matrices[1].values[0][7], 52.77);

  const auto cut = parse_nvbandwidth(read_fixture("corpus/nvbandwidth/8x-rtx4090-v0.2-h2d-d2h-excerpt-nvbandwidth-15.txt"), "c.txt");
  ASSERT_TRUE(cut.ok()) << cut.error().message;
  ASSERT_EQ(cut->matrices.size(), 3U);
  EXPECT_DOUBLE_EQ(*cut->matrices[1].printed_sum, 214.28);
  EXPECT_EQ(cut->matrices[2].status, core::Reading<std::string>("did not finish: the paste is cut"));
  EXPECT_TRUE(any_contains(cut->notes, "the paste ends inside this row")) << cut->notes.front();

  const auto sums = read_fixture("written-logs/nvbandwidth-written-sum-lines-only-grep.txt");
  EXPECT_EQ(detect_format(sums), InputFormat::nvbandwidth);
  const auto s = parse_nvbandwidth(sums, "s.txt");
  ASSERT_TRUE(s.ok()) << s.error().message;
  ASSERT_EQ(s->matrices.size(), 3U);
  EXPECT_EQ(s->matrices[2].testcase, "device_to_device_memcpy_read_ce");
  EXPECT_DOUBLE_EQ(*s->matrices[2].printed_sum, 20740.10);
  EXPECT_TRUE(s->matrices[2].values.empty());
}

TEST(NcclTestsFailures, InitFailureUnderSrunQuotesTheLinesAndKeepsTheRanks) {
  const auto r = parse_nccl_tests(read_fixture("written-logs/nccl-written-srun-init-unhandled-system-error.txt"), "i.txt");
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_TRUE(r->rows.empty());
  EXPECT_EQ(r->ranks, core::Reading<int>(2));
  EXPECT_EQ(r->nodes, core::Reading<int>(2));
  ASSERT_EQ(r->rank_devices.size(), 2U);
  EXPECT_EQ(r->rank_devices[1].host, "node-b");
  EXPECT_EQ(r->rank_devices[1].bus_id, "0000:18:00.0");
  EXPECT_TRUE(any_contains(r->failures, "line 7: node-a: Test NCCL failure common.cu:1005 'unhandled system error"));
  EXPECT_TRUE(any_contains(r->failures, "NCCL WARN NET/IB : Got completion from peer"));
}

TEST(NcclTestsFailures, CorpusFailuresAndOutOfBounds) {
  const auto p100 = read_fixture("corpus/nccl/8x-p100-pcie-nccl1-unhandled-cuda-error-nccl-tests-5.txt");
  EXPECT_EQ(detect_format(p100), InputFormat::nccl_tests_text);
  const auto old = parse_nccl_tests(p100, "p.txt");
  ASSERT_TRUE(old.ok()) << old.error().message;
  EXPECT_EQ(old->ranks, core::Reading<int>(8));
  EXPECT_EQ(old->device_names[7], "Tesla P100-PCIE-16GB");
  EXPECT_EQ(old->rank_devices[0].bus_id, "");  // 1.x printed [0x00] for every GPU
  ASSERT_EQ(old->failures.size(), 1U);
  EXPECT_EQ(old->failures[0], "line 15: NCCL failure all_reduce.cu:95 'unhandled cuda error'");

  const auto rows = parse_nccl_tests(
      read_fixture("corpus/nccl/multinode-allreduce-rows-then-unhandled-cuda-error-nccl-tests-322.txt"), "m.txt");
  ASSERT_TRUE(rows.ok()) << rows.error().message;
  EXPECT_EQ(rows->rows.size(), 5U);
  EXPECT_DOUBLE_EQ(*rows->rows.back().in_place.busbw_gbps, 367.44);
  EXPECT_FALSE(rows->failures.empty());

  const auto warn = read_fixture("corpus/nccl/h100-ib-sharp-nccl-warn-socket-family-bootstrap-fail-nccl-tests-294.txt");
  EXPECT_EQ(detect_format(warn), InputFormat::nccl_tests_text);
  const auto w = parse_nccl_tests(warn, "w.txt");
  ASSERT_TRUE(w.ok()) << w.error().message;
  EXPECT_TRUE(any_contains(w->failures, "NCCL WARN Net : connecting to address  with family 33621"));

  const auto oob = parse_nccl_tests(read_fixture("written-logs/nccl-written-out-of-bounds-failed.txt"), "o.txt");
  ASSERT_TRUE(oob.ok());
  EXPECT_EQ(oob->failures, std::vector<std::string>{"line 11: # Out of bounds values : 2 FAILED"});
}

TEST(NcclTestsVariantsIssue17, RankLineFormsCutRowsAndPartialPastes) {
  const auto l40s = read_fixture("corpus/nccl/8x-l40s-ncu-rank-lines-nccl-info-excerpt-nccl-tests-339.txt");
  EXPECT_EQ(detect_format(l40s), InputFormat::nccl_tests_text);
  const auto r = parse_nccl_tests(l40s, "l.txt");
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->ranks, core::Reading<int>(8));
  EXPECT_EQ(r->rank_devices[7].bus_id, "0000:be:00.0");
  EXPECT_TRUE(r->failures.empty());

  const auto one = parse_nccl_tests(read_fixture("corpus/nccl/1x-rtx5090-allreduce-single-gpu-excerpt-nccl-tests-287.txt"), "a.txt");
  ASSERT_TRUE(one.ok()) << one.error().message;
  EXPECT_EQ(one->rows.size(), 4U);
  EXPECT_EQ(one->ranks, core::Reading<int>(1));

  const auto header = parse_nccl_tests(read_fixture("corpus/nccl/2node-16x-h200-allreduce-header-excerpt-nccl-tests-276.txt"), "h.txt");
  ASSERT_TRUE(header.ok()) << header.error().message;
  EXPECT_EQ(header->ranks, core::Reading<int>(16));  // the cut Rank 15 line still counts
  EXPECT_EQ(header->nodes, core::Reading<int>(2));

  const auto last = parse_nccl_tests(read_fixture("written-logs/nccl-written-last-rank-lines-only-2-nodes-allreduce.txt"), "p.txt");
  ASSERT_TRUE(last.ok()) << last.error().message;
  EXPECT_FALSE(last->ranks.known());
  EXPECT_NE(last->ranks.reason().find("at least 16 ranks"), std::string::npos) << last->ranks.reason();
  EXPECT_FALSE(last->nodes.known());
}

TEST(NcclTestsVariantsIssue17, ProcessesNotJoinedByMpiAreSeparateRuns) {
  const auto runs = parse_nccl_tests_runs(
      read_fixture("written-logs/nccl-written-mpirun-without-mpi-2-processes-interleaved.txt"), "j.txt");
  ASSERT_TRUE(runs.ok()) << runs.error().message;
  ASSERT_EQ(runs->size(), 2U);
  for (const auto& run : *runs) {
    EXPECT_EQ(run.separate_runs, 2);
    EXPECT_EQ(run.ranks, core::Reading<int>(1));
    EXPECT_EQ(run.rows.size(), 2U);
  }
  EXPECT_DOUBLE_EQ(*(*runs)[1].rows[0].out_of_place.time_us, 1311.7);
  EXPECT_EQ((*runs)[0].source, "nccl-tests run 1 of 2 (j.txt)");
}

TEST(P2pTestIssue17, CrashCutMatricesAndDeviceListOnly) {
  const auto crash = parse_p2p_test(read_fixture("written-logs/p2p-written-crash-cuda-error-after-devices.txt"), "c.txt");
  ASSERT_TRUE(crash.ok()) << crash.error().message;
  ASSERT_EQ(crash->failures.size(), 1U);
  EXPECT_EQ(crash->failures[0].rfind("line 6: CUDA error at p2pBandwidthLatencyTest.cu:198", 0), 0U);
  EXPECT_EQ(crash->device_bus_ids[1], "0000:0f:00.0");

  const auto h100 = parse_p2p_test(read_fixture("corpus/p2p/8x-h100-sxm-connectivity-and-uni-matrices-excerpt-nccl-1264.txt"), "h.txt");
  ASSERT_TRUE(h100.ok()) << h100.error().message;
  ASSERT_EQ(h100->matrices.size(), 2U);  // the P2P=Enabled matrix is cut after its first row
  EXPECT_EQ(h100->matrices[1].values.size(), 1U);
  EXPECT_TRUE(h100->p2p_access.known());

  const auto mixed = parse_p2p_test(
      read_fixture("corpus/p2p/7x-mixed-4090-5090-a6000-3090-p2p-patched-access-excerpt-aikitoria-5.txt"), "m.txt");
  ASSERT_TRUE(mixed.ok()) << mixed.error().message;
  EXPECT_EQ(mixed->device_names.size(), 7U);
  EXPECT_TRUE(mixed->matrices.empty());
  const auto machine = machine_from_benchmarks({}, {*mixed});
  ASSERT_EQ(machine.gpus.size(), 7U);
  EXPECT_EQ(*machine.gpus[4].name, "NVIDIA RTX A6000");
  EXPECT_EQ(*machine.gpus[5].pci_bus_id, "0000:0d:00.0");
}

}  // namespace
}  // namespace gpuvet::parsers

namespace gpuvet::parsers {
namespace {

TEST(NcclTestsVariantsIssue17, SingleRankCannotTellAlltoallFromSendrecv) {
  const std::string log =
      "#  Rank  0 Group  0 Pid   1 on h device  0 [0x18] NVIDIA H100 80GB HBM3\n"
      "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong\n"
      "           8             2     float    none      -1     5.00    0.00    0.00      0     5.00    0.00    0.00      0\n"
      "          16             4     float    none      -1     5.00    0.00    0.00      0     5.00    0.00    0.00      0\n";
  const auto r = parse_nccl_tests(log, "alltoall.txt");
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->op, "unknown");
  bool noted = false;
  for (const auto& n : r->notes) noted = noted || n.find("cannot tell alltoall from sendrecv") != std::string::npos;
  EXPECT_TRUE(noted);
}

}  // namespace
}  // namespace gpuvet::parsers

namespace gpuvet::parsers {
namespace {

TEST(IbStatus, IbstatAndIbvDevinfoGivePortsStatesAndRates) {
  const auto ibstat = read_fixture("written-logs/ibstat-written-2x400-one-down.txt");
  EXPECT_TRUE(looks_like_ib_status(ibstat));
  const auto m = parse_ib_status(ibstat, "ib.txt");
  ASSERT_TRUE(m.ok()) << m.error().message;
  ASSERT_TRUE(m->nics.known());
  ASSERT_EQ(m->nics->size(), 2U);
  EXPECT_EQ(*(*m->nics)[0].state, "ACTIVE");
  EXPECT_EQ(*(*m->nics)[1].state, "DOWN");
  EXPECT_DOUBLE_EQ(*(*m->nics)[0].rate_gbit_s, 400.0);
  EXPECT_EQ(*(*m->nics)[0].link_layer, "InfiniBand");
  EXPECT_TRUE(m->gpus.empty());

  const auto v = parse_ib_status(read_fixture("written-logs/ibv-devinfo-v-written-1x200.txt"), "v.txt");
  ASSERT_TRUE(v.ok()) << v.error().message;
  ASSERT_EQ(v->nics->size(), 1U);
  EXPECT_DOUBLE_EQ(*(*v->nics)[0].rate_gbit_s, 200.0);
  EXPECT_EQ(*(*v->nics)[0].state, "ACTIVE");
  EXPECT_FALSE(parse_ib_status("hello\n", "x.txt").ok());
  EXPECT_FALSE(looks_like_ib_status(read_fixture("corpus/nccl/4x-v100-pcie-allreduce-excerpt-nccl-1039.txt")));
}

TEST(IbStatus, MergesIntoTheNicsTopoNamed) {
  core::Machine topo;
  topo.source = "topo.txt";
  core::Gpu g;
  g.index = 0;
  topo.gpus.push_back(g);
  core::Nic nic0;
  nic0.label = "NIC0";
  nic0.name = std::string("mlx5_0");
  topo.nics = std::vector<core::Nic>{nic0};
  const auto ib = parse_ib_status(read_fixture("written-logs/ibstat-written-2x400-one-down.txt"), "ib.txt");
  ASSERT_TRUE(ib.ok());
  const auto merged = merge_machines({topo, *ib});
  ASSERT_TRUE(merged.ok()) << merged.error().message;
  ASSERT_EQ(merged->nics->size(), 2U);
  EXPECT_EQ((*merged->nics)[0].label, "NIC0");
  EXPECT_EQ(*(*merged->nics)[0].state, "ACTIVE");
  EXPECT_DOUBLE_EQ(*(*merged->nics)[0].rate_gbit_s, 400.0);
  EXPECT_EQ(*(*merged->nics)[1].name, "mlx5_1");
}

}  // namespace
}  // namespace gpuvet::parsers
