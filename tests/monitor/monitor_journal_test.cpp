// What the daemon writes to the journal as alerts change (review r2 finding 4): an alert whose
// severity rises (warn -> fail) is logged again at <3>, and the first rate of a counter alert is
// not computed from a single 1 s interval (a counter rising 5/min never reads 60/min).
#include <gtest/gtest.h>

#include <cstdlib>
#include <regex>
#include <sstream>

#include "backends/sim/burnin_sim_backends.hpp"
#include "monitor/monitor_daemon.hpp"
#include "telemetry/telemetry_store.hpp"

namespace gpuvet::monitor {
namespace {

std::string journal_of(const std::vector<std::string>& fault_texts, double duration_s) {
  std::vector<sim::FaultSpec> faults;
  for (const auto& t : fault_texts) faults.push_back(sim::parse_fault(t).value());
  auto simulated = sim::make_sim_production("hgx-h100-8x", faults, 1);
  auto& source = *simulated.value().telemetry;
  platform::ManualClock clock(1'767'225'600'000);
  telemetry::StoreOptions options;
  options.purpose = "monitor";
  options.keyframe_every_s = 600;
  core::BurninRunInfo run;
  run.started_unix_ms = clock.unix_ms();
  auto store = telemetry::TelemetryStore::create(":memory:", run, source.gpus().value(), clock, options).value();
  SnapshotBoard board;
  std::ostringstream text;
  JournalLog log(text);
  DaemonConfig config;
  config.duration_s = duration_s;
  MonitorDaemon daemon(source, *store, board, clock, clock, log, config);
  EXPECT_TRUE(daemon.run({}));
  return text.str();
}

TEST(MonitorJournal, NvlinkAlertRisingToFailIsLoggedAtErrorWithAnHonestFirstRate) {
  const std::string log = journal_of({"nvlink-crc:gpu=2,link=3,per_min=5,at=1m"}, 1800);
  const std::regex first(R"(<4>gpuvet: alert nvlink_errors_growing \(warn\): GPU 2: .*link 3 \w+ \+\d+ \(([0-9.]+)/min\))");
  std::smatch m;
  ASSERT_TRUE(std::regex_search(log, m, first)) << log;
  EXPECT_LE(std::strtod(m[1].str().c_str(), nullptr), 5.0) << m[0];  // at most the fault's rate, not 60/min
  EXPECT_NE(log.find("<3>gpuvet: alert nvlink_errors_growing rose to fail (was warn): GPU 2"), std::string::npos) << log;
  EXPECT_LT(log.find("(warn): GPU 2"), log.find("rose to fail")) << log;
}

TEST(MonitorJournal, AnApplicationXidIsLoggedAsInfoNotAsAWarning) {
  const std::string log = journal_of({"xid:gpu=1,code=13,at=1m"}, 300);
  EXPECT_NE(log.find("<5>gpuvet: alert xid_event (info): GPU 1 reported Xid 13"), std::string::npos) << log;
  EXPECT_EQ(log.find("<4>gpuvet: alert xid_event"), std::string::npos) << log;
}

}  // namespace
}  // namespace gpuvet::monitor
