// The typed finding codes (analysis/finding_codes.hpp) hold to the catalogue: each id names a code
// the judge documents, once; so a rule or clause that matches code::x matches a real code.
#include "analysis/finding_codes.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "analysis/finding_catalog.hpp"

namespace gpuvet::analysis {
namespace {

TEST(FindingCodes, EveryTypedIdIsACatalogueCodeOnce) {
  std::set<std::string_view> seen;
  for (const auto id : code::kAll) {
    EXPECT_NE(find_finding_info(id), nullptr) << id << " is not in finding_catalog()";
    EXPECT_TRUE(seen.insert(id).second) << id << " is listed twice in code::kAll";
  }
}

TEST(FindingCodes, TheIdsSpellTheirCodes) {
  EXPECT_EQ(code::p2p_unavailable, "p2p_unavailable");
  EXPECT_EQ(code::thermal_outlier, "thermal_outlier");
  EXPECT_EQ(code::benchmark_failed, "benchmark_failed");
}

}  // namespace
}  // namespace gpuvet::analysis
