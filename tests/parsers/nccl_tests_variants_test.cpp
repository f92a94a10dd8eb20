// nccl-tests text parser on written variants of the real layouts (newest header, -S timestamps,
// -I per-iteration cells, mpirun prefixes, split groups, op/rank inference) and malformed input.
#include <gtest/gtest.h>

#include <string>

#include "parsers/nccl_tests_parser.hpp"
#include "topo_test_fixtures.hpp"

namespace gpuvet::parsers {
namespace {

using testing::read_fixture;

// nccl-tests 2.19.6 header lines (src/util.cu writeDeviceReport) around a reduce_scatter table.
const char* const kNewest =
    "# nccl-tests version 2.19.6 nccl-headers=22703 nccl-library=22703\n"
    "# Collective test starting: reduce_scatter_perf\n"
    "# nThread 1 nGpus 4 minBytes 1024 maxBytes 4096 step: 2(factor) warmup iters: 5 iters: 20 agg iters: 1 "
    "validation: 1 graph: 0 unalign: 0\n"
    "#\n"
    "# Using devices\n"
    "#  Rank  0 Group  0 Pid   1000 on      node1 device  0 [0000:18:00] NVIDIA A100-SXM4-80GB\n"
    "#  Rank  1 Group  0 Pid   1000 on      node1 device  1 [0000:2a:00] NVIDIA A100-SXM4-80GB\n"
    "#  Rank  2 Group  0 Pid   1000 on      node1 device  2 [0000:3a:00] NVIDIA A100-SXM4-80GB\n"
    "#  Rank  3 Group  0 Pid   1000 on      node1 device  3 [0000:5d:00] NVIDIA A100-SXM4-80GB\n"
    "#\n"
    "#                                                              out-of-place                       in-place\n"
    "#       size         count      type   redop    root     time   algbw   busbw  #wrong     time   algbw   busbw  #wrong\n"
    "#        (B)    (elements)                               (us)  (GB/s)  (GB/s)             (us)  (GB/s)  (GB/s)\n"
    "        1024            64     float     sum      -1    20.00    0.05    0.04       0    20.00    0.05    0.04       0\n"
    "        2048           128     float     sum      -1    20.00    0.10    0.08       3    20.00    0.10    0.08       0\n"
    "        4096           256     float     sum      -1    20.00    0.20    0.15       0    20.00    0.20    0.15       0\n"
    "# Out of bounds values : 0 OK\n"
    "# Avg bus bandwidth    : 0.0900 \n"
    "#\n"
    "# Collective test concluded: reduce_scatter_perf\n";

core::CollectiveRun parse_ok(const std::string& text, const std::string& file = "run.txt") {
  auto r = parse_nccl_tests(text, file);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
  return r.ok() ? r.value() : core::CollectiveRun{};
}

std::string parse_error(const std::string& text, const std::string& file = "bad.txt") {
  auto r = parse_nccl_tests(text, file);
  EXPECT_FALSE(r.ok());
  if (r.ok()) return "";
  EXPECT_EQ(r.error().kind, core::ErrorKind::bad_input);
  return r.error().message;
}

bool any_note_contains(const core::CollectiveRun& run, const std::string& text) {
  for (const auto& n : run.notes) {
    if (n.find(text) != std::string::npos) return true;
  }
  return false;
}

TEST(NcclTestsVariants, NewestHeaderNamesOpVersionAndRanks) {
  const auto run = parse_ok(kNewest);
  EXPECT_EQ(run.op, "reduce_scatter");
  EXPECT_FALSE(any_note_contains(run, "op "));  // named, not inferred
  EXPECT_EQ(run.nccl_version.value_or(""), "2.27.3");
  EXPECT_EQ(run.ranks.value_or(0), 4);
  EXPECT_EQ(run.nodes.value_or(0), 1);
  ASSERT_EQ(run.rows.size(), 3u);
  EXPECT_EQ(core::wrong_total(run).value_or(-1), 3);
  EXPECT_DOUBLE_EQ(run.printed_avg_busbw_gbps.value_or(0), 0.09);
  EXPECT_EQ(run.device_names[3], "NVIDIA A100-SXM4-80GB");
}

TEST(NcclTestsVariants, NcclInfoVersionWinsOverLibraryCode) {
  std::string text = kNewest;
  text.insert(text.find("#       size"), "node1:1000:1000 [0] NCCL INFO NCCL version 2.18.1+cuda12.1\n");
  EXPECT_EQ(parse_ok(text).nccl_version.value_or(""), "2.18.1");
}

TEST(NcclTestsVariants, ReduceScatterRanksInferredFromSizeOverCount) {
  std::string text = kNewest;
  text = text.substr(text.find("#                   "));
  text = text.substr(0, text.find("# Out of bounds"));  // table only
  const auto run = parse_ok(text, "rs.txt");
  EXPECT_EQ(run.op, "reduce_scatter");
  EXPECT_TRUE(any_note_contains(run, "inferred from the table"));
  EXPECT_EQ(run.ranks.value_or(0), 4);
  EXPECT_TRUE(any_note_contains(run, "ranks 4 inferred from size/count"));
  EXPECT_FALSE(run.nodes.known());
  EXPECT_FALSE(run.nccl_version.known());
}

TEST(NcclTestsVariants, TimestampsPerIterationCellsAndMpirunPrefix) {
  const std::string ts =
      "#       size         count      type   redop    root     time   algbw   busbw  #wrong     time   algbw   busbw  #wrong  timestamp\n"
      "     1048576        262144     float     sum      -1    50.00   20.97   36.70       0    49.00   21.40   37.45       0  2025-11-03 14:21:07\n";
  auto run = parse_ok(ts, "all_reduce.txt");
  ASSERT_EQ(run.rows.size(), 1u);
  EXPECT_DOUBLE_EQ(run.rows[0].in_place.busbw_gbps.value_or(0), 37.45);
  const std::string per_iter =
      "[1,0]<stdout>:# nThread 1 nGpus 8 minBytes 8 maxBytes 8 step: 2(factor) warmup iters: 1 iters: 5 agg iters: 1 validation: 1 graph: 0 unalign: 0\n"
      "[1,0]<stdout>:#       size         count      type   redop    root     time   algbw   busbw  #wrong    i_min    i_max    i_p99    i_cv%     time   algbw   busbw  #wrong    i_min    i_max    i_p99    i_cv%\n"
      "[1,0]<stdout>:  1073741824     268435456     float     sum      -1   5000.0  214.75  375.81       0   4990.0   4995.0   5010.0     0.12   5001.0  214.71  375.74       0   4991.0   4996.0   5011.0     0.11\n";
  run = parse_ok(per_iter, "x.txt");
  ASSERT_EQ(run.rows.size(), 1u);
  EXPECT_DOUBLE_EQ(run.rows[0].out_of_place.time_us.value_or(0), 5000.0);
  EXPECT_DOUBLE_EQ(run.rows[0].in_place.busbw_gbps.value_or(0), 375.74);
  EXPECT_EQ(run.op, "all_reduce");
  EXPECT_EQ(run.ranks.value_or(0), 8);  // 375.81/214.75 = 1.75 = 2(8-1)/8
  EXPECT_TRUE(any_note_contains(run, "nThread 1 nGpus 8 per process"));
  EXPECT_TRUE(looks_like_nccl_tests(per_iter));
}

TEST(NcclTestsVariants, BinaryOnCommandLineAndConflictNote) {
  const std::string table =
      "#       size         count      type   redop    root     time   algbw   busbw  #wrong     time   algbw   busbw  #wrong\n"
      "    33554432       8388608     float     sum      -1   2275.1   14.75   24.58      0   2282.5   14.70   24.50      0\n";
  auto run = parse_ok("$ mpirun -np 6 ./build/all_reduce_perf -b 32M -e 32M\n" + table);
  EXPECT_EQ(run.op, "all_reduce");
  EXPECT_TRUE(run.notes.size() == 1 && any_note_contains(run, "ranks 6 inferred")) << run.notes.size();
  run = parse_ok("$ ./build/all_gather_perf -b 32M -e 32M\n" + table);
  EXPECT_EQ(run.op, "all_gather");
  EXPECT_TRUE(any_note_contains(run, "does not look like all_gather"));
}

TEST(NcclTestsVariants, AmbiguousTableLeavesOpUnknownWithANote) {
  const std::string text =
      "0: #       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong\n"
      "0:    536870912      67108864     float    none      -1    79115    6.79    3.39      0    70638    7.60    3.80      0\n";
  const auto run = parse_ok(text, "results/run1.log");
  EXPECT_EQ(run.op, "unknown");
  EXPECT_TRUE(any_note_contains(run, "all_gather, alltoall"));
  EXPECT_FALSE(run.ranks.known());
  EXPECT_TRUE(looks_like_nccl_tests(text));
}

TEST(NcclTestsVariants, BroadcastFromRootCell) {
  const std::string text =
      "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong\n"
      "   134217728      33554432     float    none       0   1000.0  134.22  134.22      0   1001.0  134.08  134.08      0\n";
  const auto run = parse_ok(text);
  EXPECT_EQ(run.op, "broadcast");
  EXPECT_EQ(run.rows[0].root.value_or(-1), 0);
  EXPECT_FALSE(run.ranks.known());  // busbw = algbw says nothing about ranks
}

TEST(NcclTestsVariants, OldErrorColumnIsNotAWrongCount) {
  const std::string text =
      "#       size         count    type   redop     time   algbw   busbw  error     time   algbw   busbw  error\n"
      "     1048576        262144   float     sum    74.78   14.02   24.54  2e-07    76.17   13.77   24.09  0e+00\n";
  const auto run = parse_ok(text);
  EXPECT_FALSE(core::wrong_total(run).known());
  EXPECT_NE(run.rows[0].out_of_place.wrong.reason().find("max deviation (2e-07)"), std::string::npos);
}

TEST(NcclTestsVariants, SplitGroupsCountOneCommunicator) {
  std::string text = kNewest;
  text.replace(text.find("Rank  2 Group  0"), 16, "Rank  2 Group  1");
  text.replace(text.find("Rank  3 Group  0"), 16, "Rank  3 Group  1");
  const auto run = parse_ok(text);
  EXPECT_EQ(run.ranks.value_or(0), 2);
  EXPECT_TRUE(any_note_contains(run, "2 groups (NCCL_TESTS_SPLIT)"));
}

TEST(NcclTestsMalformed, RowErrorsNameFileAndLine) {
  std::string m = parse_error(read_fixture("malformed/nccl_tests_short_row.txt"), "short.txt");
  EXPECT_NE(m.find("short.txt: line 14: expected 13 cells"), std::string::npos) << m;
  m = parse_error(read_fixture("malformed/nccl_tests_non_numeric_busbw.txt"), "nn.txt");
  EXPECT_NE(m.find("nn.txt: line 14: out-of-place busbw 'fast' is not a number"), std::string::npos) << m;
  // A header without rows is a run that completed nothing (issue 17), not bad input.
  const auto empty = parse_ok(read_fixture("malformed/nccl_tests_header_no_rows.txt"), "empty.txt");
  EXPECT_TRUE(empty.rows.empty());
  EXPECT_TRUE(any_note_contains(empty, "no collective completed"));
}

TEST(NcclTestsMalformed, InlineBadInputs) {
  EXPECT_NE(parse_error("").find("bad.txt: no nccl-tests result table"), std::string::npos);
  EXPECT_NE(parse_error("hello\nworld\n").find("no nccl-tests result table"), std::string::npos);
  const std::string header =
      "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong\n";
  const std::string row = "    1024   256  float  sum  -1  10.0  0.10  0.18  0  10.0  0.10  0.18  0\n";
  EXPECT_NE(parse_error(header + "    1024   256  float  sum  x1  10.0  0.10  0.18  0  10.0  0.10  0.18  0\n")
                .find("line 2: root 'x1' is not an integer"),
            std::string::npos);
  EXPECT_NE(parse_error(header + "    1024   256  7  sum  -1  10.0  0.10  0.18  0  10.0  0.10  0.18  0\n")
                .find("type '7' is a number"),
            std::string::npos);
  EXPECT_NE(parse_error(header + "    1024   256  float  sum  -1  10.0  0.10  0.18  -2  10.0  0.10  0.18  0\n")
                .find("#wrong '-2'"),
            std::string::npos);
  // A second table is a second run (issue 17); the same table twice is read once.
  const auto two = parse_nccl_tests_runs(header + row + header + row, "two.txt");
  ASSERT_TRUE(two.ok());
  EXPECT_EQ(two->size(), 1U);
  EXPECT_TRUE(any_note_contains(two->front(), "pasted twice"));
  // A row before any header with too many cells is still a row and still wrong.
  EXPECT_NE(parse_error("1 2 3 4 5 6 7 8 9 10 11 12 13 14 15\n").find("line 1: expected"), std::string::npos);
}

}  // namespace
}  // namespace gpuvet::parsers
