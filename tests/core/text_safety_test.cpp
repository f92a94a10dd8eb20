// Depth and UTF-8 checks used on every file gpuvet reads.
#include "core/text_safety.hpp"

#include <gtest/gtest.h>

#include <string>

namespace gpuvet::core {
namespace {

TEST(BracketDepth, CountsCollectionsOutsideStrings) {
  EXPECT_EQ(bracket_depth("{}"), 1u);
  EXPECT_EQ(bracket_depth(R"({"a": [1, {"b": []}]})"), 4u);
  EXPECT_EQ(bracket_depth(R"({"a": "[[[[\"[[["})"), 1u);
  EXPECT_EQ(bracket_depth(std::string(10000, '[')), 10000u);
  EXPECT_EQ(bracket_depth("plain text"), 0u);
}

TEST(Utf8, FindsTheLineOfTheFirstInvalidSequence) {
  EXPECT_EQ(first_invalid_utf8_line("ok\nH100 \xC2\xB0" "C\n"), std::nullopt);
  EXPECT_EQ(first_invalid_utf8_line("ok\nbad \xFF\n"), 2u);
  EXPECT_EQ(first_invalid_utf8_line("\xC0\xAF"), 1u);          // overlong '/'
  EXPECT_EQ(first_invalid_utf8_line("a\n\n\xED\xA0\x80"), 3u);  // UTF-16 surrogate
  EXPECT_EQ(first_invalid_utf8_line("\xE2\x82"), 1u);          // cut in the middle
}

TEST(Utf8, ReplacesWhatJsonCannotCarry) {
  EXPECT_EQ(to_valid_utf8("GPU \xFF" "0"), "GPU \xEF\xBF\xBD" "0");
  EXPECT_EQ(to_valid_utf8("\xE2\x82\xAC"), "\xE2\x82\xAC");
}

}  // namespace
}  // namespace gpuvet::core
