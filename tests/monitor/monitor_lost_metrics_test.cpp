// A GPU lost in production keeps gpuvet_gpu_last_sample_timestamp_seconds at its last good
// sample (review r3 finding 8c), so a dashboard shows since when; the GPUs still answering carry
// the time of the last tick. The daemon on the simulator in virtual time, rendered as /metrics.
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "backends/sim/burnin_sim_backends.hpp"
#include "monitor/metrics_exposition.hpp"
#include "monitor/monitor_daemon.hpp"
#include "telemetry/telemetry_store.hpp"

namespace gpuvet::monitor {
namespace {

constexpr std::int64_t kEpochMs = 1'767'225'600'000;

// The value of `name`'s series for `gpu`, or -1 when there is none.
double series_value(const std::string& text, const std::string& name, int gpu) {
  const std::string head = "\n" + name + "{gpu=\"" + std::to_string(gpu) + "\",";
  const auto at = text.find(head);
  if (at == std::string::npos) return -1;
  const auto end = text.find('\n', at + 1);
  const auto space = text.rfind(' ', end);
  return std::stod(text.substr(space + 1, end - space - 1));
}

TEST(MonitorLostMetrics, ALostGpuKeepsTheTimeOfItsLastGoodSample) {
  auto simulated = sim::make_sim_production("hgx-h100-8x", {sim::parse_fault("gpu-lost:gpu=3,at=10m").value()}, 1);
  ASSERT_TRUE(simulated);
  auto& source = *simulated.value().telemetry;
  platform::ManualClock clock(kEpochMs);
  core::BurninRunInfo run;
  run.source = "monitor test";
  run.simulated = true;
  run.started_unix_ms = kEpochMs;
  telemetry::StoreOptions options;
  options.purpose = "monitor";
  auto store = telemetry::TelemetryStore::create(":memory:", run, source.gpus().value(), clock, options);
  ASSERT_TRUE(store);
  SnapshotBoard board;
  std::ostringstream log_text;
  JournalLog log(log_text);
  DaemonConfig config;
  config.duration_s = 1800;
  MonitorDaemon daemon(source, *store.value(), board, clock, clock, log, config);
  ASSERT_TRUE(daemon.run({}));
  const auto snapshot = board.current();
  ASSERT_TRUE(snapshot->gpus[3].lost) << log_text.str();
  const std::string text = render_metrics(*snapshot, {});
  const std::string name = "gpuvet_gpu_last_sample_timestamp_seconds";
  const double lost_at = series_value(text, name, 3);
  const double now = series_value(text, name, 0);
  ASSERT_GT(lost_at, 0) << "no " << name << " for the lost GPU 3";
  // Its last good sample is just before the fault at 10 min; GPU 0 answered at the last tick (30 min).
  EXPECT_GE(lost_at, kEpochMs / 1000.0 + 590);
  EXPECT_LT(lost_at, kEpochMs / 1000.0 + 601);
  EXPECT_GE(now, kEpochMs / 1000.0 + 1799);
  // The readings of the lost GPU are not exported as if current.
  EXPECT_LT(series_value(text, "gpuvet_gpu_temperature_celsius", 3), 0);
  EXPECT_EQ(series_value(text, "gpuvet_gpu_lost", 3), 1);
}

}  // namespace
}  // namespace gpuvet::monitor
