#include "core/reading.hpp"

#include <gtest/gtest.h>

using gpuvet::core::Reading;

TEST(Reading, DefaultIsAbsentNotZero) {
  Reading<int> r;
  EXPECT_FALSE(r.known());
  EXPECT_EQ(r.reason(), "not reported");
  EXPECT_EQ(r.value_or(-1), -1);
}

TEST(Reading, KeepsValueAndReason) {
  Reading<int> zero = 0;
  EXPECT_TRUE(zero.known());
  EXPECT_EQ(*zero, 0);
  auto absent = Reading<int>::absent("NVML: not supported");
  EXPECT_FALSE(absent);
  EXPECT_EQ(absent.reason(), "NVML: not supported");
}
