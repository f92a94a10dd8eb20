// The Prometheus alerting rules: every alert names a catalogue code (or none, for the daemon
// itself) and a severity the code can have, windows follow --speed, and dist/ holds the current
// file. promtool checks the syntax and the rules' behaviour (tests/monitor/prometheus_promtool_test.sh).
#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>

#include <fmt/format.h>

#include "analysis/baseline_drift.hpp"
#include "analysis/finding_catalog.hpp"
#include "monitor/alert_evaluator.hpp"
#include "monitor/prometheus_rules.hpp"

namespace gpuvet::monitor {
namespace {

using namespace std::chrono_literals;

int rank(core::Severity s) { return static_cast<int>(s); }

TEST(PrometheusRules, EveryAlertNamesACatalogueCodeAtASeverityItCanHave) {
  std::set<std::string> codes;
  std::set<std::string> names;
  for (const auto& group : prometheus_rule_groups()) {
    for (const auto& rule : group.rules) {
      if (rule.alert.empty()) continue;
      EXPECT_TRUE(names.insert(rule.alert).second) << "alert name twice: " << rule.alert;
      EXPECT_FALSE(rule.summary.empty()) << rule.alert;
      if (rule.code.empty()) continue;  // about the daemon itself
      const auto* info = analysis::find_finding_info(rule.code);
      ASSERT_NE(info, nullptr) << rule.alert << ": code " << rule.code << " is not in the finding catalogue";
      EXPECT_LE(rank(rule.severity), rank(info->severity)) << rule.alert;
      codes.insert(rule.code);
    }
  }
  for (const char* code : {"utilization_below_peers", "nvlink_errors_growing", "xid_event", "ecc_errors_new",
                           "row_remap_pending", "retired_pages", "pcie_replays", "throttle_reasons", "gpu_lost",
                           "hotter_than_peers", "slower_than_peers"}) {
    EXPECT_EQ(codes.count(code), 1u) << "no rule for " << code;
  }
  for (const char* code : {"pcie_link_degraded", "row_remap_failure", "remapped_rows_growing", "baseline_drift"}) {
    EXPECT_EQ(codes.count(code), 1u) << "no rule for " << code;
  }
}

TEST(PrometheusRules, RulesFileCarriesCodeSeverityAndNextStep) {
  const std::string text = prometheus_alert_rules();
  EXPECT_EQ(text.rfind("# ", 0), 0u);
  EXPECT_NE(text.find("groups:\n"), std::string::npos);
  EXPECT_NE(text.find("      - alert: GpuvetUtilizationBelowPeers\n"), std::string::npos);
  EXPECT_NE(text.find("          code: utilization_below_peers\n          severity: warn\n"), std::string::npos);
  // The daemon's evaluator and the rules share one utilization window (alert_windows.hpp).
  EXPECT_EQ(AlertThresholds{}.util_window_s, 300.0);
  EXPECT_EQ(AlertThresholds{}.health.counter_window_s, 900.0);
  EXPECT_NE(text.find("increase(gpuvet_ecc_uncorrected_errors_total[15m])"), std::string::npos);
  EXPECT_NE(text.find("avg_over_time(gpuvet_gpu_utilization_ratio[5m])"), std::string::npos);
  EXPECT_NE(text.find("gpu:gpuvet_gpu_utilization_ratio:avg5m\n"), std::string::npos);
  EXPECT_NE(text.find("        for: 5m\n"), std::string::npos);
  EXPECT_NE(text.find("        for: 2h\n"), std::string::npos);
  // The catalogue's next step for nvlink_errors_growing.
  const auto* nvlink = analysis::find_finding_info("nvlink_errors_growing");
  ASSERT_NE(nvlink, nullptr);
  EXPECT_NE(text.find("next_step: \"" + nvlink->next_step + "\""), std::string::npos);
}

TEST(PrometheusRules, SpeedDividesEveryWindowAndFor) {
  const std::string text = prometheus_alert_rules({180});
  EXPECT_NE(text.find("avg_over_time(gpuvet_gpu_utilization_ratio[2s])"), std::string::npos);   // 5m / 180
  EXPECT_NE(text.find("        for: 40s\n"), std::string::npos);                                 // 2h / 180
  EXPECT_NE(text.find("increase(gpuvet_xid_events_total[5s])"), std::string::npos);              // 15m / 180
  EXPECT_EQ(text.find("[5m]"), std::string::npos);
  EXPECT_EQ(text.find("for: 2h"), std::string::npos);
  EXPECT_NE(text.find("divided by 180"), std::string::npos);
}

// baseline_drift: the rules judge with the daemon's limits (analysis/baseline_drift.hpp) and
// windows (alert_windows.hpp), and fail where the daemon's severity function says fail.
TEST(PrometheusRules, BaselineDriftUsesTheDaemonsLimitsAndWindows) {
  using namespace analysis;
  const double hot_fail = kBaselineHotterFailFactor * kBaselineHotterC;
  const double slow_fail = kBaselineClockFailFactor * kBaselineClockShare;
  EXPECT_EQ(baseline_hotter_severity(hot_fail), core::Severity::fail);
  EXPECT_EQ(baseline_hotter_severity(hot_fail - 0.01), core::Severity::warn);
  EXPECT_EQ(baseline_hotter_severity(kBaselineHotterC - 0.01), core::Severity::info);
  EXPECT_EQ(baseline_slower_severity(slow_fail), core::Severity::fail);
  EXPECT_EQ(baseline_slower_severity(slow_fail - 0.001), core::Severity::warn);

  const std::string text = prometheus_alert_rules();
  EXPECT_NE(text.find(fmt::format("gpuvet_baseline_temperature_celsius) >= {:g} < {:g}\n", kBaselineHotterC, hot_fail)),
            std::string::npos);
  EXPECT_NE(text.find(fmt::format("gpuvet_baseline_temperature_celsius) >= {:g}\n", hot_fail)), std::string::npos);
  EXPECT_NE(text.find(fmt::format("gpuvet_baseline_sm_clock_hertz) >= {:g} < {:g}\n", kBaselineClockShare, slow_fail)),
            std::string::npos);
  EXPECT_NE(text.find(fmt::format("gpuvet_baseline_sm_clock_hertz) >= {:g}\n", slow_fail)), std::string::npos);
  // Minute means over the hour (kBaselineDriftBucket, kBaselineDriftWindow), busy at 80 %, 30 busy minutes.
  EXPECT_EQ(kBaselineDriftWindow, 1h);
  EXPECT_EQ(kBaselineDriftMinBusy, 30min);
  EXPECT_NE(text.find(fmt::format("avg_over_time(gpuvet_gpu_utilization_ratio[1m]) >= {:g})[1h:1m]",
                                  kBaselineBusyUtilPct / 100)),
            std::string::npos);
  EXPECT_NE(text.find("gpu:gpuvet_gpu_busy_minutes:count1h >= 30\n"), std::string::npos);
  // At --speed 180 the hour is 20 s of 1 s buckets, of which 10 under load.
  const std::string fast = prometheus_alert_rules({180});
  EXPECT_NE(fast.find("[20s:1s]"), std::string::npos);
  EXPECT_NE(fast.find("gpu:gpuvet_gpu_busy_minutes:count1h >= 10\n"), std::string::npos);
}

TEST(PrometheusRules, DurationsAsPrometheusWritesThem) {
  EXPECT_EQ(prometheus_duration(7200s), "2h");
  EXPECT_EQ(prometheus_duration(1800s), "30m");
  EXPECT_EQ(prometheus_duration(90s), "90s");
  EXPECT_EQ(prometheus_duration(0s), "1s");
}

TEST(PrometheusRules, DistFileIsTheGeneratedOne) {
  std::ifstream in(GPUVET_SOURCE_DIR "/dist/prometheus/gpuvet-rules.yml");
  ASSERT_TRUE(in) << "dist/prometheus/gpuvet-rules.yml missing";
  std::stringstream content;
  content << in.rdbuf();
  EXPECT_EQ(content.str(), prometheus_alert_rules())
      << "regenerate: build/default/src/cli/gpuvet monitor rules > dist/prometheus/gpuvet-rules.yml";
}

}  // namespace
}  // namespace gpuvet::monitor
