// The typed finding codes (core/finding_codes.hpp) hold to the catalogue: each id names a code
// the judge documents, once; so a rule, clause or renderer that matches code::x matches a real code.
#include "core/finding_codes.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "analysis/finding_catalog.hpp"
#include "analysis/finding_codes.hpp"

namespace gpuvet::analysis {
namespace {

TEST(FindingCodes, EveryTypedIdIsACatalogueCodeOnce) {
  std::set<std::string_view> seen;
  for (const auto id : core::code::kAll) {
    EXPECT_NE(find_finding_info(id), nullptr) << id << " is not in finding_catalog()";
    EXPECT_TRUE(seen.insert(id).second) << id << " is listed twice in code::kAll";
  }
}

TEST(FindingCodes, TheIdsSpellTheirCodes) {
  EXPECT_EQ(core::code::p2p_unavailable, "p2p_unavailable");
  EXPECT_EQ(core::code::thermal_outlier, "thermal_outlier");
  EXPECT_EQ(core::code::benchmark_failed, "benchmark_failed");
}

// The rules' name for the ids (analysis::code) is the core ids themselves, not a second list.
TEST(FindingCodes, TheAnalysisNameIsTheCoreIds) {
  EXPECT_EQ(&analysis::code::xid_event, &core::code::xid_event);
  EXPECT_EQ(std::size(analysis::code::kAll), std::size(core::code::kAll));
}

}  // namespace
}  // namespace gpuvet::analysis
