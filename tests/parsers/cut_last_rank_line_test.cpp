// The last line of a pasted nccl-tests log may stop inside its last token (review r4 finding 4):
// a final Rank line's name or host that ends the input without a newline, or that is a strict
// prefix of another rank's, is cut: dropped, never a new GPU model or host.
#include <gtest/gtest.h>

#include <string>

#include "parsers/nccl_tests_parser.hpp"

namespace gpuvet::parsers {
namespace {

const std::string kHead =
    "# nThread 1 nGpus 8 minBytes 8 maxBytes 134217728 step: 2(factor) warmup iters: 5 iters: 20 validation: 1\n"
    "# Using devices\n"
    "#   Rank  0 on     node03 device  0 [0x00] Tesla P100-PCIE-16GB\n"
    "#   Rank  1 on     node03 device  1 [0x00] Tesla P100-PCIE-16GB\n";

core::CollectiveRun parse(const std::string& text) {
  auto runs = parse_nccl_tests_runs(text, "cut.txt");
  EXPECT_TRUE(runs.ok()) << runs.error().message;
  EXPECT_EQ(runs->size(), 1u);
  return runs->front();
}

TEST(CutLastRankLine, NameCutAtTheEndOfTheInputIsDropped) {
  const auto run = parse(kHead + "#   Rank  2 on     node03 device  2 [0x00] Tesla P100-PC");
  ASSERT_EQ(run.rank_devices.size(), 3u);
  EXPECT_EQ(run.rank_devices[2].name, "");
  EXPECT_EQ(run.rank_devices[2].host, "node03");
  EXPECT_NE(run.notes.front().find("its Rank line is cut"), std::string::npos) << run.notes.front();
}

TEST(CutLastRankLine, NameThatIsAPrefixOfAnotherIsDroppedEvenWithANewline) {
  const auto run = parse(kHead + "#   Rank  2 on     node03 device  2 [0x00] Tesla P100-PC\n");
  ASSERT_EQ(run.rank_devices.size(), 3u);
  EXPECT_EQ(run.rank_devices[2].name, "");
}

TEST(CutLastRankLine, HostCutAtTheEndIsNotANewHost) {
  for (const std::string last : {"#   Rank  2 on     n", "#   Rank  2 on     node0\n"}) {
    const auto run = parse(kHead + last);
    ASSERT_EQ(run.rank_devices.size(), 3u) << last;
    EXPECT_EQ(run.rank_devices[2].host, "") << last;
    ASSERT_TRUE(run.nodes.known()) << last;
    EXPECT_EQ(*run.nodes, 1) << last;
  }
}

TEST(CutLastRankLine, CompleteLastLineIsKept) {
  // A whole last line, ended by its newline and no prefix of another: a different model is real.
  const auto run = parse(kHead + "#   Rank  2 on     node04 device  0 [0x00] Tesla V100-SXM2-16GB\n");
  ASSERT_EQ(run.rank_devices.size(), 3u);
  EXPECT_EQ(run.rank_devices[2].name, "Tesla V100-SXM2-16GB");
  EXPECT_EQ(run.rank_devices[2].host, "node04");
}

}  // namespace
}  // namespace gpuvet::parsers
