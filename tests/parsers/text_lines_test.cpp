#include "parsers/text_lines.hpp"

#include <gtest/gtest.h>

using namespace gpuvet::parsers;

TEST(TextLines, StripsCrlfAndAnsiAndNumbersLines) {
  const auto lines = split_lines("\t\x1b[4mGPU0\tGPU1\x1b[0m\r\nGPU0\t X \r\n");
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0].text, "\tGPU0\tGPU1");
  EXPECT_EQ(lines[1].number, 2);
  EXPECT_EQ(lines[1].text, "GPU0\t X ");
}

TEST(TextLines, SplitsOnTabsAndSpaces) {
  const auto cells = split_ws("GPU0\t X \tNV4  NODE\t0-31,64-95\t0\t\tN/A");
  const std::vector<std::string> want = {"GPU0", "X", "NV4", "NODE", "0-31,64-95", "0", "N/A"};
  EXPECT_EQ(cells, want);
}
