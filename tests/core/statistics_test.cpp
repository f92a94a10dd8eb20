// core::median, the one median every layer uses: odd and even counts, order, repeats, and no
// value at all (absent, never 0).
#include "core/statistics.hpp"

#include <gtest/gtest.h>

namespace gpuvet::core {
namespace {

TEST(Median, OddCountIsTheMiddleValue) {
  EXPECT_EQ(median({3, 1, 2}), 2.0);
  EXPECT_EQ(median({5}), 5.0);
}

TEST(Median, EvenCountIsTheMeanOfTheMiddleTwo) {
  EXPECT_EQ(median({4, 1, 3, 2}), 2.5);
  EXPECT_EQ(median({10, 20}), 15.0);
  EXPECT_EQ(median({7, 7, 1, 9}), 7.0);
}

TEST(Median, SameAsSortingForAnyOrder) {
  std::vector<double> v{9.5, -1, 3.25, 3.25, 100, 0, 42, 8};
  auto sorted = v;
  std::sort(sorted.begin(), sorted.end());
  const double by_sorting = (sorted[3] + sorted[4]) / 2;
  EXPECT_EQ(median(v), by_sorting);
}

TEST(Median, NoValuesIsAbsentNotZero) { EXPECT_FALSE(median({}).has_value()); }

}  // namespace
}  // namespace gpuvet::core
