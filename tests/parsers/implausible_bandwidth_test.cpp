// Bandwidths no link can carry (negative, NaN, inf, above kMaxPlausibleGbps) and JSON nested too
// deep are bad input naming the file and line (or JSON path) in every benchmark parser.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "parsers/bandwidth_plausibility.hpp"
#include "parsers/nccl_tests_parser.hpp"
#include "parsers/nvbandwidth_parser.hpp"
#include "parsers/p2p_test_parser.hpp"
#include "topo_test_fixtures.hpp"

namespace gpuvet::parsers {
namespace {

using testing::read_fixture;

template <class R>
void expect_bad_input(const R& r, const std::string& want) {
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, core::ErrorKind::bad_input);
  EXPECT_EQ(r.error().message, want);
}

TEST(Plausibility, BoundsOfABandwidth) {
  EXPECT_FALSE(implausible_gbps(0.0));
  EXPECT_FALSE(implausible_gbps(235.26));
  EXPECT_FALSE(implausible_gbps(kMaxPlausibleGbps));
  EXPECT_EQ(implausible_gbps(-0.01), "is negative");
  EXPECT_EQ(implausible_gbps(std::nan("")), "is not a number (NaN)");
  EXPECT_EQ(implausible_gbps(1.0 / 0.0), "is infinite");
  EXPECT_TRUE(implausible_gbps(10000.5));
  EXPECT_TRUE(implausible_gbps(1e308));
  EXPECT_FALSE(implausible_non_negative(1e6));
  EXPECT_EQ(implausible_non_negative(-1), "is negative");
}

TEST(ImplausibleNcclText, NegativeBusbwAtTheLargeSizes) {
  expect_bad_input(parse_nccl_tests(read_fixture("malformed/nccl_tests_negative_busbw_large_sizes.txt"), "m.txt"),
                   "m.txt: line 47: out-of-place busbw '-230.29' is negative");
}

TEST(ImplausibleNcclText, AbsurdBusbw) {
  const auto r = parse_nccl_tests(read_fixture("malformed/nccl_tests_absurd_busbw.txt"), "m.txt");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, core::ErrorKind::bad_input);
  EXPECT_EQ(r.error().message.rfind("m.txt: line 50: out-of-place busbw '1e308' is above 10000 GB/s", 0), 0u)
      << r.error().message;
  const std::string in_place =
      "#  size count type redop root time algbw busbw #wrong time algbw busbw #wrong\n"
      "1024 256 float sum -1 20.0 0.05 0.09 0 20.0 0.05 99999999 0\n";
  const auto ip = parse_nccl_tests(in_place, "m.txt");
  ASSERT_FALSE(ip.ok());
  EXPECT_EQ(ip.error().message.rfind("m.txt: line 2: in-place busbw '99999999' is above 10000 GB/s", 0), 0u)
      << ip.error().message;
}

TEST(ImplausibleNcclText, NegativeAlgbwTimeAndPrintedAverage) {
  const std::string header = "#  size count type redop root time algbw busbw #wrong time algbw busbw #wrong\n";
  expect_bad_input(parse_nccl_tests(header + "1024 256 float sum -1 20.0 -0.05 0.09 0 20.0 0.05 0.09 0\n", "m.txt"),
                   "m.txt: line 2: out-of-place algbw '-0.05' is negative");
  expect_bad_input(parse_nccl_tests(header + "1024 256 float sum -1 -20.0 0.05 0.09 0 20.0 0.05 0.09 0\n", "m.txt"),
                   "m.txt: line 2: out-of-place time '-20.0' is negative");
  const auto avg = parse_nccl_tests(header + "1024 256 float sum -1 20.0 0.05 0.09 0 20.0 0.05 0.09 0\n"
                                             "# Avg bus bandwidth    : 1e300\n",
                                    "m.txt");
  ASSERT_FALSE(avg.ok());
  EXPECT_EQ(avg.error().message.rfind("m.txt: line 3: average bus bandwidth '1e300' is above", 0), 0u) << avg.error().message;
}

// On one rank busbw is 0 and an in-place all_reduce copies nothing: algbw = size / launch time
// can exceed any link's speed without being wrong.
TEST(ImplausibleNcclText, SingleRankAlgbwHasNoCeiling) {
  const std::string one_rank =
      "#  size count type redop root time algbw busbw #wrong time algbw busbw #wrong\n"
      "8589934592 2147483648 float sum -1 2900.1 2961.9 0.00 0 4.10 2095106.0 0.00 0\n";
  const auto r = parse_nccl_tests(one_rank, "one.txt");
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_DOUBLE_EQ(*r->rows[0].in_place.algbw_gbps, 2095106.0);
}

TEST(ImplausibleNcclJson, NegativeBusbwNamesThePath) {
  const auto r = parse_nccl_tests_json(read_fixture("malformed/nccl_tests_json_negative_busbw.json"), "m.json");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, core::ErrorKind::bad_input);
  EXPECT_EQ(r.error().message, "m.json: results[10].in_place.bus_bw: -303.960884 is negative");
}

TEST(ImplausibleNcclJson, AbsurdAverage) {
  auto text = read_fixture("nccl/written-2node-16x-h100-allreduce-J.json");
  const auto at = text.find("\"bandwidth\":");
  ASSERT_NE(at, std::string::npos);
  const auto end = text.find_first_of(",}", at + 12);
  text.replace(at + 12, end - (at + 12), "1e308");
  const auto r = parse_nccl_tests_json(text, "m.json");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message.rfind("m.json: average_bus_bandwidth.bandwidth: 1e+308 is above 10000 GB/s", 0), 0u)
      << r.error().message;
}

TEST(NestedNcclJson, DeepNestingIsRefusedBeforeParsing) {
  const std::string deep = "{\"results\":" + std::string(100000, '[') + std::string(100000, ']') + "}";
  expect_bad_input(parse_nccl_tests_json(deep, "deep.json"),
                   "deep.json: JSON nested 100001 levels deep, more than the 64 any nccl-tests -J output has");
  // Brackets inside strings do not count.
  const std::string quoted = "{\"results\":[], \"x\":\"" + std::string(1000, '[') + "\"}";
  const auto r = parse_nccl_tests_json(quoted, "q.json");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, "q.json: results: no result rows");
}

TEST(ImplausibleNvbandwidth, NegativeCellAndAbsurdSum) {
  expect_bad_input(parse_nvbandwidth(read_fixture("malformed/nvbandwidth_negative_cell.txt"), "m.txt"),
                   "m.txt: line 30: cell \"-55.15\" in row \"0\", column \"1\" of device_to_host_memcpy_ce is negative");
  const auto r = parse_nvbandwidth(read_fixture("malformed/nvbandwidth_absurd_sum.txt"), "m.txt");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message.rfind("m.txt: line 32: SUM device_to_host_memcpy_ce 99999999 is above 80000 GB/s", 0), 0u)
      << r.error().message;
}

TEST(ImplausibleNvbandwidth, LatencyCellsNeedOnlyBeNonNegative) {
  const std::string latency =
      "Running device_to_device_latency_sm.\n"
      "Device to Device Latency SM GPU(row) <-> GPU(column) (ns)\n"
      "           0         1\n"
      " 0       N/A  12345678.00\n"
      " 1    -1.00       N/A\n";
  expect_bad_input(parse_nvbandwidth(latency, "l.txt"),
                   "l.txt: line 5: cell \"-1.00\" in row \"1\", column \"0\" of device_to_device_latency_sm is negative");
}

TEST(ImplausibleP2p, AbsurdCell) {
  const auto r = parse_p2p_test(read_fixture("malformed/p2p_test_absurd_cell.txt"), "m.txt");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, core::ErrorKind::bad_input);
  EXPECT_EQ(r.error().message.rfind(
                "m.txt: line 49: cell \"99999999.00\" in row \"1\", column \"2\" of p2p_bidirectional_p2p_enabled is above 10000 GB/s",
                0),
            0u)
      << r.error().message;
}

}  // namespace
}  // namespace gpuvet::parsers
