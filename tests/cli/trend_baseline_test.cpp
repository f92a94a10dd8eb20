// The trend baseline from an accept report: the burn-in stage's steady state (data), and for a
// bundle written before report.json carried it, the burn-in's charts.
#include <gtest/gtest.h>

#include "cli/trend_baseline.hpp"

namespace gpuvet::cli {
namespace {

// A report whose burn-in charts say 50 °C / 1400 MHz / 500 W for GPU 0 in their second half.
accept::AcceptReport report_with_charts() {
  accept::AcceptReport r;
  r.finished_utc = "2026-01-01T00:00:00Z";
  r.hostname = "h";
  accept::StageRecord burnin;
  burnin.id = "burnin";
  burnin.status = accept::StageStatus::done;
  const std::vector<std::pair<double, double>> warm = {{0, 30}, {600, 40}};
  auto chart = [&](const char* title, const char* unit, double steady) {
    accept::SeriesData s{title, unit, {"GPU 0"}, {warm}, {}, {}};
    for (double t = 1800; t <= 3600; t += 60) s.points[0].emplace_back(t, steady);
    return s;
  };
  burnin.series = {chart("GPU temperature", "°C", 50), chart("SM clock", "MHz", 1400), chart("Board power", "W", 500)};
  r.stages.push_back(burnin);
  return r;
}

TEST(TrendBaselineFromReport, TheBurninsSteadyStateIsReadAsData) {
  auto r = report_with_charts();
  r.stages[0].steady_state = std::vector<accept::BurninSteadyState>{{1, 66.0, 690.0, 1780.0}, {0, 64.0, 689.0, 1782.0}};
  auto b = baseline_from_report(r, "bundle");
  ASSERT_TRUE(b.ok()) << b.error().message;
  ASSERT_EQ(b->gpus.size(), 2u);
  EXPECT_EQ(b->gpus[0].gpu, 0);  // in GPU order
  EXPECT_EQ(b->gpus[0].temp_c, 64.0);
  EXPECT_EQ(b->gpus[0].sm_clock_mhz, 1782.0);
  EXPECT_EQ(b->gpus[0].power_w, 689.0);
  EXPECT_EQ(b->gpus[1].temp_c, 66.0);
  EXPECT_EQ(b->label, "bundle");
  EXPECT_EQ(b->hostname, "h");
}

TEST(TrendBaselineFromReport, AnOlderBundleWithoutItFallsBackToTheCharts) {
  auto b = baseline_from_report(report_with_charts(), "bundle");
  ASSERT_TRUE(b.ok()) << b.error().message;
  ASSERT_EQ(b->gpus.size(), 1u);
  EXPECT_EQ(b->gpus[0].temp_c, 50.0);
  EXPECT_EQ(b->gpus[0].sm_clock_mhz, 1400.0);
  EXPECT_EQ(b->gpus[0].power_w, 500.0);
}

TEST(TrendBaselineFromReport, ASteadyStateWithoutAReadingKeepsOnlyTheGpusMeasured) {
  auto r = report_with_charts();
  r.stages[0].series.clear();
  r.stages[0].steady_state = std::vector<accept::BurninSteadyState>{{0, 64.0, std::nullopt, 1782.0}, {1, std::nullopt, std::nullopt, std::nullopt}};
  auto b = baseline_from_report(r, "bundle");
  ASSERT_TRUE(b.ok()) << b.error().message;
  ASSERT_EQ(b->gpus.size(), 1u);
  EXPECT_FALSE(b->gpus[0].power_w);
}

TEST(TrendBaselineFromReport, NoBurninResultsIsBadInput) {
  auto r = report_with_charts();
  r.stages[0].series.clear();
  auto none = baseline_from_report(r, "bundle");
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.error().kind, core::ErrorKind::bad_input);
  EXPECT_NE(none.error().message.find("bundle/report.json: no burn-in results"), std::string::npos) << none.error().message;
  r.stages[0].steady_state = std::vector<accept::BurninSteadyState>{};
  EXPECT_FALSE(baseline_from_report(r, "bundle").ok());
  r.stages[0].status = accept::StageStatus::not_run;
  r.stages[0].steady_state = std::vector<accept::BurninSteadyState>{{0, 64.0, 689.0, 1782.0}};
  EXPECT_NE(baseline_from_report(r, "bundle").error().message.find("did not run to the end"), std::string::npos);
}

}  // namespace
}  // namespace gpuvet::cli
