// The monitor daemon on its live path: the real NVML telemetry source reading the fake
// libnvidia-ml.so.1 (tests/backends/nvml/fake). Every GPU is sampled with the readings the fake
// serves; an old driver's missing symbols make readings unsupported, never a lost GPU; a GPU off
// the bus is gpu_lost while the others keep going; an Xid from the driver's event set fires for
// its GPU; a call that hangs marks only its GPU unresponsive, and the GPU is sampled again once
// the driver answers. The hang and mid-run loss
// run on the real clock for about two seconds (the fake's driver lives in wall time).
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <sstream>
#include <thread>

#include "backends/nvml/nvml_telemetry.hpp"
#include "monitor/monitor_daemon.hpp"
#include "telemetry/telemetry_store.hpp"

namespace gpuvet::monitor {
namespace {

constexpr std::int64_t kEpochMs = 1'767'225'600'000;

// The fake's knobs (tests/backends/nvml/fake/fake_state.hpp); empty leaves one unset.
struct FakeEnv {
  std::string faults = {};
  std::string lost_gpus = {};
  std::string hang_gpu = {};
  std::string hang_after_s = {};
  std::string hang_s = {};
  std::string speed = {};
};

void set_or_unset(const char* name, const std::string& value) {
  if (value.empty()) {
    unsetenv(name);
  } else {
    setenv(name, value.c_str(), 1);
  }
}

struct LiveRun {
  DaemonSummary summary;
  std::shared_ptr<const MonitorSnapshot> snapshot;
  std::string log;
  std::vector<core::UnsupportedField> unsupported;  // what the history recorded
};

bool has_alert(const MonitorSnapshot& s, const std::string& code, int gpu) {
  for (const auto& a : s.alerts) {
    if (a.code == code && std::find(a.gpus.begin(), a.gpus.end(), gpu) != a.gpus.end()) return true;
  }
  return false;
}

// Runs the daemon on `library` for `duration_s`: virtual time (ManualClock) unless `real_time`.
LiveRun run_live(const char* library, const FakeEnv& env, double duration_s, bool real_time = false,
                 DaemonConfig config = {}) {
  set_or_unset("GPUVET_FAKE_NVML_PROFILE", "hgx-h100-8x");
  set_or_unset("GPUVET_FAKE_NVML_FAULTS", env.faults);
  set_or_unset("GPUVET_FAKE_NVML_LOST_GPUS", env.lost_gpus);
  set_or_unset("GPUVET_FAKE_NVML_HANG_GPU", env.hang_gpu);
  set_or_unset("GPUVET_FAKE_NVML_HANG_AFTER_S", env.hang_after_s);
  set_or_unset("GPUVET_FAKE_NVML_HANG_S", env.hang_s);
  set_or_unset("GPUVET_FAKE_NVML_SPEED", env.speed);
  LiveRun out;
  auto source = nvml::open_nvml_telemetry(library);
  EXPECT_TRUE(source) << (source ? "" : source.error().message);
  if (!source) return out;
  auto gpus = source.value()->gpus();
  EXPECT_TRUE(gpus);
  platform::ManualClock commit_clock;
  core::BurninRunInfo run;
  run.source = "monitor live test";
  run.started_unix_ms = kEpochMs;
  telemetry::StoreOptions options;
  options.purpose = "monitor";
  options.fsync_each_commit = false;
  auto store = telemetry::TelemetryStore::create(":memory:", run, gpus.value(), commit_clock, options).value();
  platform::ManualClock manual(kEpochMs);
  platform::SteadyClock steady;
  platform::Clock& clock = real_time ? static_cast<platform::Clock&>(steady) : manual;
  SnapshotBoard board;
  std::ostringstream log_text;
  JournalLog log(log_text);
  config.duration_s = duration_s;
  {
    MonitorDaemon daemon(*source.value(), *store, board, clock, steady, log, config);
    auto summary = daemon.run({});
    EXPECT_TRUE(summary) << (summary ? "" : summary.error().message);
    if (summary) out.summary = summary.value();
    // A call abandoned on the fake's hang returns when the hang ends: wait for it before the
    // source is destroyed (the daemon's command leaks the source instead; see monitor_command).
    for (int i = 0; i < 100 && daemon.hung_calls() > 0; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(50));
    EXPECT_EQ(daemon.hung_calls(), 0u);
  }
  out.snapshot = board.current();
  out.log = log_text.str();
  auto record = store->read_back([](const core::BurninRecord&) {}, [](const core::TelemetrySample&) {});
  EXPECT_TRUE(record) << (record ? "" : record.error().message);
  if (record) out.unsupported = record->unsupported;
  return out;
}

TEST(MonitorLive, EveryGpuSampledWithTheFakesReadings) {
  const LiveRun r = run_live(GPUVET_FAKE_NVML_FULL, {}, 5);
  ASSERT_TRUE(r.snapshot);
  ASSERT_EQ(r.snapshot->gpus.size(), 8u);
  EXPECT_GE(r.summary.ticks, 5u);
  for (const auto& g : r.snapshot->gpus) {
    EXPECT_TRUE(g.has_sample) << g.gpu.index;
    EXPECT_FALSE(g.lost) << g.gpu.index;
    EXPECT_TRUE(g.latest.power_w.known()) << g.latest.power_w.reason();
    EXPECT_TRUE(g.latest.gpu_temp_c.known()) << g.latest.gpu_temp_c.reason();
    EXPECT_TRUE(g.latest.util_gpu_pct.known());
    EXPECT_TRUE(g.latest.sm_clock_mhz.known());
    EXPECT_TRUE(g.latest.nvlink.known()) << g.latest.nvlink.reason();
  }
  EXPECT_TRUE(r.snapshot->alerts.empty()) << r.snapshot->alerts.front().message;
  EXPECT_EQ(r.snapshot->cost.source_errors_total, 0u);
  EXPECT_EQ(r.snapshot->cost.samples_total, 8 * r.summary.ticks);
}

TEST(MonitorLive, MissingSymbolsAreUnsupportedNotALostGpu) {
  // The minimal fake is an old driver: no temperature, power, utilization or field-value symbols.
  const LiveRun r = run_live(GPUVET_FAKE_NVML_MINIMAL, {}, 5);
  ASSERT_TRUE(r.snapshot);
  ASSERT_EQ(r.snapshot->gpus.size(), 8u);
  for (const auto& g : r.snapshot->gpus) {
    EXPECT_TRUE(g.has_sample);
    EXPECT_FALSE(g.lost) << g.gpu.index;
    EXPECT_FALSE(g.latest.power_w.known());
    EXPECT_NE(g.latest.power_w.reason().find("nvmlDeviceGetPowerUsage not exported"), std::string::npos)
        << g.latest.power_w.reason();
    EXPECT_TRUE(g.latest.pstate.known());  // what the old driver has is still read
    EXPECT_FALSE(g.xid_watched) << g.gpu.index;  // no event set: the Xid counters are unknown, not 0
  }
  EXPECT_FALSE(has_alert(*r.snapshot, "gpu_lost", 0)) << r.log;
  EXPECT_EQ(r.log.find("stopped answering"), std::string::npos) << r.log;
  EXPECT_EQ(r.snapshot->cost.source_errors_total, 0u);  // unsupported is not a failed call
  bool power_recorded = false;
  for (const auto& f : r.unsupported) power_recorded = power_recorded || (f.gpu == 0 && f.field == "power_w");
  EXPECT_TRUE(power_recorded);
}

TEST(MonitorLive, GpuOffTheBusIsLostAndTheOthersKeepGoing) {
  const LiveRun r = run_live(GPUVET_FAKE_NVML_FULL, {.lost_gpus = "2"}, 5);
  ASSERT_TRUE(r.snapshot);
  EXPECT_TRUE(r.snapshot->gpus.at(2).lost);
  EXPECT_TRUE(has_alert(*r.snapshot, "gpu_lost", 2));
  for (const auto& g : r.snapshot->gpus) {
    if (g.gpu.index == 2) continue;
    EXPECT_FALSE(g.lost) << g.gpu.index;
    EXPECT_TRUE(g.latest.power_w.known()) << g.gpu.index;
    EXPECT_FALSE(has_alert(*r.snapshot, "gpu_lost", g.gpu.index));
  }
  EXPECT_NE(r.log.find("GPU fell off the bus (NVML_ERROR_GPU_IS_LOST)"), std::string::npos) << r.log;
}

TEST(MonitorLive, GpuFallingOffTheBusMidRun) {
  // The fake's model runs 3600x wall time: gpu-lost at 1 h falls at about 1 s of the 2 s run.
  DaemonConfig config;
  config.interval_s = 0.1;
  const LiveRun r = run_live(GPUVET_FAKE_NVML_FULL, {.faults = "gpu-lost:gpu=5,at=1h", .speed = "3600"}, 2.0, true, config);
  ASSERT_TRUE(r.snapshot);
  EXPECT_TRUE(r.snapshot->gpus.at(5).lost);
  EXPECT_TRUE(has_alert(*r.snapshot, "gpu_lost", 5)) << r.log;
  EXPECT_TRUE(r.snapshot->gpus.at(4).latest.power_w.known());
  EXPECT_FALSE(r.snapshot->gpus.at(4).lost);
  EXPECT_GE(r.summary.ticks, 10u);  // the daemon kept its pace after the loss
}

TEST(MonitorLive, XidFromTheDriversEventSetFiresForItsGpu) {
  // Xid 48 (double-bit ECC) on GPU 2 at 1 h of the fake's model, which runs 3600x wall time.
  DaemonConfig config;
  config.interval_s = 0.1;
  const LiveRun r =
      run_live(GPUVET_FAKE_NVML_FULL, {.faults = "xid:gpu=2,code=48,at=1h", .speed = "3600"}, 2.0, true, config);
  ASSERT_TRUE(r.snapshot);
  EXPECT_TRUE(has_alert(*r.snapshot, "xid_event", 2)) << r.log;
  EXPECT_EQ(r.snapshot->gpus.at(2).last_xid, 48);
  EXPECT_EQ(r.snapshot->gpus.at(2).xid_total, 1u);
  for (int other : {0, 1, 3, 4, 5, 6, 7}) EXPECT_EQ(r.snapshot->gpus.at(static_cast<std::size_t>(other)).xid_total, 0u);
  bool xid_unsupported = false;
  for (const auto& f : r.unsupported) xid_unsupported = xid_unsupported || f.field == "xid_events";
  EXPECT_FALSE(xid_unsupported);
}

TEST(MonitorLive, HungCallMarksOnlyItsGpuAndItComesBack) {
  // GPU 3's driver is stuck from 0.5 s to 1.2 s after nvmlInit; the daemon allows 0.2 s a call.
  DaemonConfig config;
  config.interval_s = 0.1;
  config.call_deadline_s = 0.2;
  config.lost_retry_s = 0.2;
  const LiveRun r = run_live(GPUVET_FAKE_NVML_FULL, {.hang_gpu = "3", .hang_after_s = "0.5", .hang_s = "0.7"}, 2.5, true, config);
  ASSERT_TRUE(r.snapshot);
  EXPECT_NE(r.log.find("GPU 3 stopped answering (no answer within 0.2 s"), std::string::npos) << r.log;
  EXPECT_NE(r.log.find("alert gpu_lost (fail): GPU 3"), std::string::npos) << r.log;
  EXPECT_NE(r.log.find("GPU 3 answers again"), std::string::npos) << r.log;
  EXPECT_FALSE(r.snapshot->gpus.at(3).lost);
  EXPECT_TRUE(r.snapshot->gpus.at(3).latest.power_w.known());
  EXPECT_GE(r.snapshot->cost.source_errors_total, 1u);
  for (int other : {0, 1, 2, 4, 5, 6, 7}) {
    EXPECT_EQ(r.log.find(fmt::format("GPU {} stopped", other)), std::string::npos) << r.log;
  }
  EXPECT_GE(r.summary.ticks, 15u);  // a hung GPU cost deadlines, not the sampling thread
}

}  // namespace
}  // namespace gpuvet::monitor
