// The machine picture attached to utilization_below_peers: findings naming the GPU, renumbered to
// the daemon's indices; "nothing" when the picture is clean for that GPU; "not available" with the
// reason when it could not be read; other alerts untouched.
#include <gtest/gtest.h>

#include <sstream>

#include "backends/sim/burnin_sim_backends.hpp"
#include "monitor/lag_causes.hpp"
#include "monitor/monitor_daemon.hpp"
#include "telemetry/telemetry_store.hpp"

namespace gpuvet::monitor {
namespace {

core::Finding finding(std::string code, core::Severity severity, std::vector<int> gpus, std::string message) {
  core::Finding f;
  f.code = std::move(code);
  f.severity = severity;
  f.gpus = std::move(gpus);
  f.message = std::move(message);
  return f;
}

MonitorAlert lagging(int gpu) {
  MonitorAlert a;
  a.code = "utilization_below_peers";
  a.gpus = {gpu};
  a.message = "GPU " + std::to_string(gpu) + " utilization 60 % against its peers' 100 %";
  return a;
}

std::string evidence(const MonitorAlert& a, const std::string& key) {
  for (const auto& [k, v] : a.evidence) {
    if (k == key) return v;
  }
  return "";
}

TEST(LagCauses, FindingsNamingTheGpuInTheDaemonsNumbering) {
  core::Assessment machine;
  machine.findings = {finding("nvlink_down", core::Severity::fail, {3}, "GPU 3 has 17 of 18 NVLinks up"),
                      finding("interconnect_class", core::Severity::info, {0, 1, 2, 3}, "NVSwitch"),
                      finding("pcie_link_degraded", core::Severity::warn, {3, 5}, "x8 against x16")};
  // GPU 2 fell off the bus: the picture's 3 is the daemon's 4, the picture's 5 is its 6.
  const LagCauses causes = lag_causes(machine, {{0, 0}, {1, 1}, {2, 3}, {3, 4}, {4, 5}, {5, 6}});
  ASSERT_EQ(causes.size(), 2u);
  EXPECT_EQ(causes.at(4), "nvlink_down: GPU 3 has 17 of 18 NVLinks up; pcie_link_degraded: x8 against x16");
  EXPECT_EQ(causes.at(6), "pcie_link_degraded: x8 against x16");
}

TEST(LagCauses, AttachedToUtilizationAlertsOnly) {
  std::vector<MonitorAlert> alerts = {lagging(4), lagging(1)};
  MonitorAlert other;
  other.code = "nvlink_errors_growing";
  other.gpus = {4};
  other.message = "unchanged";
  alerts.push_back(other);
  attach_lag_causes(alerts, LagCauses{{4, "nvlink_down: GPU 3 has 17 of 18 NVLinks up"}}, "");
  EXPECT_EQ(evidence(alerts[0], "machine_picture"), "nvlink_down: GPU 3 has 17 of 18 NVLinks up");
  EXPECT_NE(alerts[0].message.find("the machine picture shows on it: nvlink_down"), std::string::npos) << alerts[0].message;
  EXPECT_NE(evidence(alerts[1], "machine_picture").find("nothing on this GPU"), std::string::npos);
  EXPECT_NE(alerts[1].message.find("look at the job's placement"), std::string::npos);
  EXPECT_EQ(alerts[2].message, "unchanged");
  EXPECT_TRUE(alerts[2].evidence.empty());
}

TEST(LagCauses, UnreadablePictureIsSaidNotTakenAsClean) {
  std::vector<MonitorAlert> alerts = {lagging(2)};
  attach_lag_causes(alerts, std::nullopt, "sysfs unreadable");
  EXPECT_EQ(evidence(alerts[0], "machine_picture"), "not available (sysfs unreadable)");
  EXPECT_EQ(alerts[0].message.find("nothing"), std::string::npos);
}

TEST(LagCauses, TheDaemonsAlertCarriesThePictureItWasGiven) {
  auto simulated = sim::make_sim_production("hgx-h100-8x", {sim::parse_fault("util-lag:gpu=5").value()}, 1);
  ASSERT_TRUE(simulated);
  auto& source = *simulated.value().telemetry;
  platform::ManualClock clock(1'767'225'600'000);
  auto store = telemetry::TelemetryStore::create(":memory:", {}, source.gpus().value(), clock, {}).value();
  SnapshotBoard board;
  std::ostringstream text;
  JournalLog log(text);
  DaemonConfig config;
  config.duration_s = 1800;
  config.lag_causes = LagCauses{{5, "nvlink_down: GPU 5 has NVLink link 2 inactive"}};
  MonitorDaemon daemon(source, *store, board, clock, clock, log, config);
  ASSERT_TRUE(daemon.run({}));
  const auto snapshot = board.current();
  ASSERT_TRUE(snapshot);
  ASSERT_EQ(snapshot->alerts.size(), 1u) << text.str();
  EXPECT_EQ(evidence(snapshot->alerts[0], "machine_picture"), "nvlink_down: GPU 5 has NVLink link 2 inactive");
  EXPECT_NE(text.str().find("the machine picture shows on it: nvlink_down"), std::string::npos) << text.str();
}

}  // namespace
}  // namespace gpuvet::monitor
