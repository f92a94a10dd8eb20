// The one duration grammar: what parses, what does not, and that nothing long or huge can hurt.
#include "core/duration.hpp"

#include <gtest/gtest.h>

#include <string>

namespace gpuvet::core {
namespace {

TEST(Duration, ParsesWhatPeopleWrite) {
  EXPECT_EQ(parse_duration("4h"), 14400);
  EXPECT_EQ(parse_duration("30m"), 1800);
  EXPECT_EQ(parse_duration("15min"), 900);
  EXPECT_EQ(parse_duration("1h30m"), 5400);
  EXPECT_EQ(parse_duration("1h 30m 10s"), 5410);
  EXPECT_EQ(parse_duration(" 90 "), 90);
  EXPECT_EQ(parse_duration("2.5h"), 9000);
  EXPECT_EQ(parse_duration("2d"), 172800);
  EXPECT_DOUBLE_EQ(*parse_duration("100ms"), 0.1);
  EXPECT_DOUBLE_EQ(*parse_duration("1m500ms"), 60.5);
}

TEST(Duration, RefusesWhatIsNotADuration) {
  for (const char* bad : {"", "h", "4 hours", "-1h", "1e3s", "1.h", ".5h", "30m1h", "1h1h", "4x", "1h 2", "nan", "inf"}) {
    EXPECT_FALSE(parse_duration(bad)) << bad;
  }
}

TEST(Duration, LongOrHugeTextIsRefusedWithoutRecursionOrOverflow) {
  EXPECT_FALSE(parse_duration(std::string(400, '9') + "h"));  // out of range: refused, not an exception
  std::string long_text;
  for (int i = 0; i < 200000; ++i) long_text += "1h";
  EXPECT_FALSE(parse_duration(long_text));  // would crash std::regex by recursion
  EXPECT_EQ(parse_duration(std::string(100000, ' ') + "1s"), 1);
}

TEST(Duration, FormatsWholeUnits) {
  EXPECT_EQ(format_duration(14400), "4h");
  EXPECT_EQ(format_duration(1800), "30m");
  EXPECT_EQ(format_duration(90), "90s");
  EXPECT_EQ(format_duration(0.5), "0.5s");
}

}  // namespace
}  // namespace gpuvet::core
