// nvbandwidth and p2pBandwidthLatencyTest outputs cut by the paste (review r4 finding 8): an
// incomplete measurement (read, with a note naming what is missing), not bad input; files that
// are not these formats at all stay bad input. Issue 20: a run cut after a testcase says so.
#include <gtest/gtest.h>

#include <string>

#include "parsers/nvbandwidth_parser.hpp"
#include "parsers/p2p_test_parser.hpp"

namespace gpuvet::parsers {
namespace {

const std::string kNvbHead =
    "nvbandwidth Version: v0.7\nDriver Version: 550.127.08\n\n"
    "Device 0: NVIDIA A100-SXM4-80GB (00000000:34:00)\nDevice 1: NVIDIA A100-SXM4-80GB (00000000:35:00)\n";
const std::string kNvbMatrix =
    "Running host_to_device_memcpy_ce.\nmemcpy CE CPU(row) -> GPU(column) bandwidth (GB/s)\n"
    "          0         1\n0     55.28     55.30\n\nSUM host_to_device_memcpy_ce 110.58\n";

TEST(CutBenchmarkOutput, NvbandwidthCutAfterItsDeviceListIsReadWithANote) {
  const auto r = parse_nvbandwidth(kNvbHead, "n.txt");
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_TRUE(r->matrices.empty());
  EXPECT_EQ(r->device_names.size(), 2U);
  ASSERT_EQ(r->notes.size(), 1U);
  EXPECT_EQ(r->notes[0],
            "line 5: the output ends after nvbandwidth's header and its 2 device line(s): no testcase is in it, nothing "
            "was measured (cut, or pasted without its results)");
}

TEST(CutBenchmarkOutput, NvbandwidthCutInsideAColumnHeaderOrSumLine) {
  const auto header = parse_nvbandwidth(kNvbHead + kNvbMatrix.substr(0, kNvbMatrix.find("         1")), "n.txt");
  ASSERT_TRUE(header.ok()) << header.error().message;
  const std::string upto_sum = kNvbHead + kNvbMatrix.substr(0, kNvbMatrix.find("SUM") + 12);
  const auto sum = parse_nvbandwidth(upto_sum, "n.txt");
  ASSERT_TRUE(sum.ok()) << sum.error().message;
  ASSERT_EQ(sum->matrices.size(), 1U);
  EXPECT_FALSE(sum->matrices[0].printed_sum.known());
  EXPECT_NE(sum->notes.back().find("the paste ends inside a SUM line"), std::string::npos) << sum->notes.back();
}

TEST(CutBenchmarkOutput, LastValueWithoutALineEndIsNotBelieved) {
  // "55" may be "55.30" cut, "5" may be too: absent, never a slow pair.
  const std::string text = kNvbHead + kNvbMatrix.substr(0, kNvbMatrix.find("55.30") + 2);
  const auto r = parse_nvbandwidth(text, "n.txt");
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_EQ(r->matrices.size(), 1U);
  ASSERT_EQ(r->matrices[0].values.size(), 1U);
  EXPECT_DOUBLE_EQ(*r->matrices[0].values[0][0], 55.28);
  EXPECT_EQ(r->matrices[0].values[0][1].reason(), "the paste ends inside this value");
  // With its line end the same row is whole.
  const auto whole = parse_nvbandwidth(text + "\n", "n.txt");
  ASSERT_TRUE(whole.ok());
  EXPECT_DOUBLE_EQ(*whole->matrices[0].values[0][1], 55.0);
  // A decimal digit after the point: the integer part is whole, kept as printed.
  const auto decimals = parse_nvbandwidth(kNvbHead + kNvbMatrix.substr(0, kNvbMatrix.find("55.30") + 4), "n.txt");
  ASSERT_TRUE(decimals.ok());
  EXPECT_DOUBLE_EQ(*decimals->matrices[0].values[0][1], 55.3);
}

TEST(CutBenchmarkOutput, P2pCutInsideAMatrixHeaderIsReadWithANote) {
  const std::string text =
      "[P2P (Peer-to-Peer) GPU Bandwidth Latency Test]\n"
      "Device: 0, NVIDIA RTX 6000 Ada Generation, pciBusID: 1, pciDeviceID: 0, pciDomainID:0\n"
      "Device: 1, NVIDIA RTX 6000 Ada Generation, pciBusID: 21, pciDeviceID: 0, pciDomainID:0\n"
      "Device: 2, NVIDIA RTX 6000 Ada Generation, pciBusID: 41, pciDeviceID: 0, pciDomainID:0\n"
      "P2P Connectivity Matrix\n     D\\D     0     1";
  const auto r = parse_p2p_test(text, "p.txt");
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->device_names.size(), 3U);
  EXPECT_TRUE(r->matrices.empty());
  ASSERT_FALSE(r->notes.empty());
  EXPECT_EQ(r->notes.back(),
            "line 6: the paste ends inside the column header of P2P Connectivity Matrix (\"D\\x5cD     0     1\"); the "
            "matrix is not in it");
  // Not cut (more lines follow): a header of the wrong width stays bad input.
  EXPECT_FALSE(parse_p2p_test(text + "\n   0     1     1\n   1     1     1\n", "p.txt").ok());
}

// Issue 20: a run that does not reach nvbandwidth's end says what is not in it (BandwidthRun::cut),
// so the machine cannot pass on the testcases before the cut.
TEST(CutBenchmarkOutput, NvbandwidthRunCutAfterATestcaseSaysWhatIsNotInIt) {
  // v0.6 and later end a run with two NOTE lines.
  const auto v07 = parse_nvbandwidth(kNvbHead + kNvbMatrix, "n.txt");
  ASSERT_TRUE(v07.ok()) << v07.error().message;
  ASSERT_TRUE(v07->cut);
  EXPECT_EQ(*v07->cut,
            "the output ends without the NOTE lines nvbandwidth v0.7 prints after its last testcase: it was cut or "
            "stopped in or after host_to_device_memcpy_ce, and the testcases after it are not in it");
  const auto closed = parse_nvbandwidth(kNvbHead + kNvbMatrix +
                                            "\nNOTE: The reported results may not reflect the full capabilities of the "
                                            "platform.\nPerformance can vary with software drivers, hardware clocks, and "
                                            "system topology.\n",
                                        "n.txt");
  ASSERT_TRUE(closed.ok());
  EXPECT_FALSE(closed->cut);
  // v0.2-v0.5 print nothing after their last testcase: one testcase alone, or a paste ending
  // inside one, may be cut; two whole testcases are read as the run.
  const std::string v02 = "nvbandwidth Version: v0.2\n\nDevice 0: NVIDIA H800\nDevice 1: NVIDIA H800\n\n";
  const std::string d2h =
      "\nRunning device_to_host_memcpy_ce.\nmemcpy CE CPU(row) <- GPU(column) bandwidth (GB/s)\n"
      "          0         1\n0     55.15     55.15\n\nSUM device_to_host_memcpy_ce 110.30\n";
  const auto one = parse_nvbandwidth(v02 + kNvbMatrix, "n.txt");
  ASSERT_TRUE(one.ok());
  ASSERT_TRUE(one->cut);
  EXPECT_NE(one->cut->find("one testcase (host_to_device_memcpy_ce)"), std::string::npos) << *one->cut;
  const auto two = parse_nvbandwidth(v02 + kNvbMatrix + d2h, "n.txt");
  ASSERT_TRUE(two.ok());
  EXPECT_FALSE(two->cut);
  const auto inside = parse_nvbandwidth(v02 + kNvbMatrix + d2h.substr(0, d2h.find("55.15") + 4), "n.txt");
  ASSERT_TRUE(inside.ok()) << inside.error().message;
  ASSERT_TRUE(inside->cut);
  EXPECT_EQ(*inside->cut, "the paste ends inside device_to_host_memcpy_ce: it and the testcases after it are not in it");
}

TEST(CutBenchmarkOutput, OtherFormatsStayBadInput) {
  EXPECT_FALSE(parse_nvbandwidth("Driver Version: 550\nhello\n", "x.txt").ok());
  EXPECT_FALSE(parse_p2p_test("hello world\n", "x.txt").ok());
}

}  // namespace
}  // namespace gpuvet::parsers
