// Xid on the endpoint (review r2 findings 7 and 11): a GPU whose Xid events are not watched (no
// NVML event set) has no Xid series at all, never a 0 that reads "no Xid"; and the rules file
// gives each Xid the severity the daemon gives it, from one source (xid_alert_severity.hpp).
#include <gtest/gtest.h>

#include <string>

#include "metrics_test_snapshot.hpp"
#include "monitor/metrics_exposition.hpp"
#include "monitor/prometheus_rules.hpp"
#include "monitor/xid_alert_severity.hpp"

namespace gpuvet::monitor {
namespace {

bool has_series(const std::string& text, const std::string& name, int gpu) {
  return text.find("\n" + name + "{gpu=\"" + std::to_string(gpu) + "\",") != std::string::npos;
}

TEST(MetricsXid, UnwatchedXidEventsAreAbsentNotZero) {
  MonitorSnapshot snapshot = testing::full_snapshot();
  snapshot.gpus[2].xid_watched = false;
  const std::string text = render_metrics(snapshot, {true, 0});
  for (const char* name : {"gpuvet_xid_events_total", "gpuvet_last_xid", "DCGM_FI_DEV_XID_ERRORS"}) {
    EXPECT_FALSE(has_series(text, name, 2)) << name << " exported for a GPU whose Xids are not watched";
    EXPECT_TRUE(has_series(text, name, 1)) << name << " missing for a watched GPU";
  }
}

TEST(MetricsXid, RulesFileAndDaemonGiveEachXidTheSameSeverity) {
  const std::string text = prometheus_alert_rules();
  // Xid 13 (RESTART_APP: the application's fault) is info for the daemon, and so for the rules.
  ASSERT_EQ(xid_alert_severity(13), core::Severity::info);
  EXPECT_EQ(xid_alert_severity(79), core::Severity::fail);
  EXPECT_EQ(xid_alert_severity(99999), core::Severity::warn);  // not in the catalogue
  for (const core::Severity severity : kXidAlertSeverities) {
    const std::string label = std::string(core::to_string(severity));
    // The rule that selects this severity label carries this severity, and no rule lumps two together.
    const std::string selects = "gpuvet_last_xid_info{severity=\"" + label + "\"}\n";
    const auto at = text.find(selects);
    ASSERT_NE(at, std::string::npos) << "no Xid rule for " << label;
    const auto labels = text.find("          code: xid_event\n          severity: " + label + "\n", at);
    EXPECT_NE(labels, std::string::npos) << label;
    EXPECT_LT(labels, text.find("- alert:", at)) << label;
  }
  EXPECT_EQ(text.find("severity!="), std::string::npos);
}

}  // namespace
}  // namespace gpuvet::monitor
