// The finding catalogue: codes unique and complete against what the rules emit.
#include <set>

#include <gtest/gtest.h>

#include "analysis/finding_catalog.hpp"
#include "test_attribution.hpp"
#include "test_bandwidth.hpp"
#include "test_burnin_records.hpp"
#include "test_collectives.hpp"
#include "test_machines.hpp"
#include "test_trend.hpp"

namespace gpuvet::analysis::testing {
namespace {

TEST(FindingCatalog, CodesAreUniqueAndDescribed) {
  std::set<std::string> seen;
  for (const auto& info : finding_catalog()) {
    EXPECT_TRUE(seen.insert(info.code).second) << "duplicate code " << info.code;
    EXPECT_FALSE(info.title.empty()) << info.code;
    EXPECT_FALSE(info.description.empty()) << info.code;
    EXPECT_FALSE(info.next_step.empty()) << info.code;
  }
  EXPECT_EQ(find_finding_info("no_such_code"), nullptr);
  ASSERT_NE(find_finding_info("nvlink_down"), nullptr);
}

TEST(FindingCatalog, EveryEmittedCodeIsCatalogued) {
  std::set<std::string> emitted;
  for (const auto& entry : gallery()) {
    for (const auto& f : judge(entry.machine, entry.expect).findings) {
      const FindingInfo* info = find_finding_info(f.code);
      ASSERT_NE(info, nullptr) << entry.name << ": " << f.code;
      // The catalogue's severity is the most severe level a code is emitted at.
      EXPECT_LE(static_cast<int>(f.severity), static_cast<int>(info->severity)) << entry.name << ": " << f.code;
      EXPECT_FALSE(f.message.empty()) << entry.name << ": " << f.code;
      EXPECT_FALSE(f.next_step.empty()) << entry.name << ": " << f.code;
      emitted.insert(f.code);
    }
  }
  auto benchmark_findings = collective_gallery_findings();
  for (auto& f : bandwidth_gallery_findings()) benchmark_findings.push_back(std::move(f));
  for (auto& f : attribution_gallery_findings()) benchmark_findings.push_back(std::move(f));
  for (auto& f : burnin_gallery_findings()) benchmark_findings.push_back(std::move(f));
  for (auto& f : trend_gallery_findings()) benchmark_findings.push_back(std::move(f));
  for (const auto& f : benchmark_findings) {
    const FindingInfo* info = find_finding_info(f.code);
    ASSERT_NE(info, nullptr) << f.code;
    EXPECT_LE(static_cast<int>(f.severity), static_cast<int>(info->severity)) << f.code;
    emitted.insert(f.code);
  }
  // And the gallery reaches every catalogued code, so the catalogue holds nothing dead. Plan
  // findings come from src/plan and are reached in tests/plan (PlanFindings); the monitor's own
  // alert codes from src/monitor, reached in tests/monitor (AlertEvaluator, AlertMemoryLink).
  for (const auto& info : finding_catalog()) {
    if (info.code.rfind("plan_", 0) == 0) continue;
    if (info.code == "utilization_below_peers" || info.code == "remapped_rows_growing") continue;
    EXPECT_TRUE(emitted.count(info.code)) << "never emitted: " << info.code;
  }
}

}  // namespace
}  // namespace gpuvet::analysis::testing
