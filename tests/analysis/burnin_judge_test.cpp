// The burn-in judge over hand-built records: a healthy run is clean, each planted problem is
// found on the right GPU with its time, and what could not be observed makes the run incomplete.
#include <gtest/gtest.h>

#include <algorithm>

#include "analysis/burnin_judge.hpp"
#include "test_burnin_records.hpp"

namespace gpuvet::analysis::testing {
namespace {

std::string evidence(const core::Finding& f, const std::string& key) {
  for (const auto& [k, v] : f.evidence) {
    if (k == key) return v;
  }
  return "<missing " + key + ">";
}

const core::Finding* find_code(const BurninAssessment& a, const std::string& code) {
  for (const auto& f : a.findings) {
    if (f.code == code) return &f;
  }
  return nullptr;
}

// A GEMM-only burn-in of GPUs with NVLink leaves the links idle: the judge says so, nothing more.
TEST(BurninJudge, HealthyRunHasNoFindings) {
  const auto a = judge_burnin(healthy_burnin());
  ASSERT_EQ(a.findings.size(), 1u) << a.findings.front().code << ": " << a.findings.front().message;
  EXPECT_EQ(a.findings[0].code, "links_carried_no_traffic");
  EXPECT_EQ(a.findings[0].severity, core::Severity::info);
  EXPECT_TRUE(a.unverified.empty());
  ASSERT_EQ(a.gpus.size(), 8u);
  EXPECT_NEAR(*a.gpus[0].median_tflops, 790, 2);
  EXPECT_DOUBLE_EQ(a.recorded_s, 3600);
}

// A monitor's history: no planned duration, no GEMM of its own (TFLOP/s unknown), the users' jobs
// at 95 % utilization. Steady state from the samples under load; a killed monitor is incomplete.
core::BurninRecord monitor_history(core::BurninStatus status) {
  auto r = healthy_burnin();
  r.run.planned_duration_s = 0;
  r.run.status = status;
  r.run.started_unix_ms = 1796083200000;  // 2026-12-01 00:00 UTC
  for (auto& s : r.samples) {
    s.tflops = core::Reading<double>::absent("the monitor only watches");
    s.util_gpu_pct = 95.0;
    s.power_w = 450.0;  // the users' jobs need not reach the power limit
  }
  return r;
}

TEST(BurninJudge, MonitorHistoryHasASteadyStateByUtilizationAndNoPlan) {
  auto record = monitor_history(core::BurninStatus::completed);
  edit_samples(record, 2, 1800, [](core::TelemetrySample& s) {
    s.nvlink = std::vector<core::NvLinkErrorSample>{
        {0, static_cast<std::uint64_t>(s.t_s), std::uint64_t{0}, std::uint64_t{0}, std::uint64_t{0}}};
  });
  const auto a = judge_burnin(record);
  ASSERT_EQ(a.gpus.size(), 8u);
  EXPECT_FALSE(a.gpus[0].median_tflops.known());
  ASSERT_TRUE(a.gpus[0].median_temp_c.known()) << a.gpus[0].median_temp_c.reason();
  ASSERT_TRUE(a.gpus[0].median_sm_clock_mhz.known());
  EXPECT_NEAR(*a.gpus[0].median_power_w, 450, 1e-9);
  EXPECT_EQ(find_code(a, "power_not_reached"), nullptr);
  EXPECT_TRUE(a.unverified.empty()) << a.unverified.front();
  const auto* nvlink = find_code(a, "nvlink_errors_growing");
  ASSERT_NE(nvlink, nullptr);
  EXPECT_NE(nvlink->message.find("from 2026-12-01 00:29:50 UTC"), std::string::npos)
      << nvlink->message;  // a date, not 00:29:50 into a run
  const auto killed = judge_burnin(monitor_history(core::BurninStatus::running));
  ASSERT_EQ(killed.unverified.size(), 1u);
  EXPECT_NE(killed.unverified[0].find("the monitor did not stop cleanly"), std::string::npos) << killed.unverified[0];
  EXPECT_EQ(killed.unverified[0].find("planned 00:00:00"), std::string::npos) << killed.unverified[0];
}

TEST(BurninJudge, CounterRateIsOverTheSpanItGrew) {
  // CRC errors at 60 per minute for the last 10 minutes of an hour: 60/min, not 10/min.
  auto record = healthy_burnin();
  edit_samples(record, 1, 0, [](core::TelemetrySample& s) {
    const auto grown = static_cast<std::uint64_t>(std::max(0.0, s.t_s - 3000));
    s.nvlink = std::vector<core::NvLinkErrorSample>{{0, grown, std::uint64_t{0}, std::uint64_t{0}, std::uint64_t{0}}};
  });
  const auto a = judge_burnin(record);
  const auto* f = find_code(a, "nvlink_errors_growing");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(evidence(*f, "link0_crc_flit_per_min"), "60.00");
  EXPECT_NE(f->message.find("(60.0/min from 00:50:00 to 01:00:00)"), std::string::npos) << f->message;
}

TEST(BurninJudge, EveryPlantedProblemIsFoundOnItsGpu) {
  for (const auto& entry : burnin_gallery()) {
    const auto a = judge_burnin(entry.record);
    const core::Finding* f = find_code(a, entry.code);
    ASSERT_NE(f, nullptr) << entry.name;
    EXPECT_EQ(f->gpus, std::vector<int>{entry.gpu}) << entry.name;
    EXPECT_FALSE(f->evidence.empty()) << entry.name;
    for (const auto& other : a.findings) {
      if (other.code == "links_carried_no_traffic") continue;  // every GEMM-only run's note
      EXPECT_EQ(other.gpus, std::vector<int>{entry.gpu}) << entry.name << " also flags " << other.code;
    }
  }
}

TEST(BurninJudge, FindingsCarryTheirTime) {
  for (const auto& entry : burnin_gallery()) {
    const auto a = judge_burnin(entry.record);
    const core::Finding* f = find_code(a, entry.code);
    ASSERT_NE(f, nullptr);
    if (entry.code == "clock_desync") {
      EXPECT_EQ(evidence(*f, "first_drop"), "00:20:00");
      EXPECT_NE(f->message.find("first to throttle"), std::string::npos);
    }
    if (entry.code == "xid_event") {
      EXPECT_EQ(evidence(*f, "xid"), "48");
      EXPECT_EQ(evidence(*f, "window"), "00:20:34-00:20:34");
      EXPECT_EQ(f->severity, core::Severity::fail);
    }
    if (entry.code == "throttle_reasons") {
      EXPECT_EQ(evidence(*f, "hw_slowdown_first"), "00:30:00");
      EXPECT_EQ(evidence(*f, "hw_slowdown_s"), "1810");
      EXPECT_EQ(f->severity, core::Severity::fail);
    }
    if (entry.code == "ecc_errors_new") {
      EXPECT_EQ(evidence(*f, "corrected_new"), "6");
      EXPECT_EQ(f->severity, core::Severity::warn);
    }
    if (entry.code == "nvlink_errors_growing") {
      EXPECT_EQ(evidence(*f, "link4_crc_flit_per_min"), "5.01");
      EXPECT_EQ(f->severity, core::Severity::fail);  // replays grew by more than 1
    }
    if (entry.code == "pcie_replays") {
      EXPECT_EQ(evidence(*f, "per_minute"), "12.00");
      EXPECT_EQ(f->severity, core::Severity::warn);
    }
    if (entry.code == "compute_miscompare") {
      EXPECT_EQ(evidence(*f, "first_seen"), "00:41:40");
    }
    if (entry.code == "straggler_gpu") {
      EXPECT_EQ(evidence(*f, "median_tflops"), "632.0");
    }
  }
}

TEST(BurninJudge, XidSeverityIsTheCataloguesAsTheDaemonJudgesIt) {
  // NVLink5 RLW (145) and GPU fatal timeout (158) fail; an application's page fault (31) or
  // graphics exception (13) is info; an Xid gpuvet's catalogue lacks is warn (review r3 #1).
  auto record = healthy_burnin();
  const std::pair<int, core::Severity> rows[] = {{145, core::Severity::fail},
                                                 {158, core::Severity::fail},
                                                 {13, core::Severity::info},
                                                 {31, core::Severity::info},
                                                 {999, core::Severity::warn}};
  int gpu = 0;
  for (const auto& [xid, severity] : rows) record.events.push_back({gpu++, 600, core::TelemetryEventKind::xid, xid, "Xid"});
  const auto a = judge_burnin(record);
  gpu = 0;
  for (const auto& [xid, severity] : rows) {
    const auto it = std::find_if(a.findings.begin(), a.findings.end(), [&wanted = xid](const core::Finding& f) {
      return f.code == "xid_event" && evidence(f, "xid") == std::to_string(wanted);
    });
    ASSERT_NE(it, a.findings.end()) << "Xid " << xid;
    EXPECT_EQ(it->severity, severity) << "Xid " << xid << ": " << it->message;
    EXPECT_EQ(it->gpus, std::vector<int>{gpu++});
  }
}

TEST(BurninJudge, XidNinetyFourIsTheMemoryNotTheApplication) {
  // A contained ECC error fails the GPU: its words must not call it the application's (review r3 #7).
  auto record = healthy_burnin();
  record.events.push_back({3, 600, core::TelemetryEventKind::xid, 94, "Xid 94"});
  const auto a = judge_burnin(record);
  const auto* f = find_code(a, "xid_event");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, core::Severity::fail);
  for (const std::string& text : {f->message, f->next_step}) {
    EXPECT_EQ(text.find("application error"), std::string::npos) << text;
    EXPECT_EQ(text.find("not the machine"), std::string::npos) << text;
  }
  EXPECT_NE(f->message.find("memory is at fault"), std::string::npos) << f->message;
}

TEST(BurninJudge, GpuSilentForAWhileIsLostWithItsUuidAndTime) {
  // A monitor restarted without GPU 2 (not enumerated): its samples hold no reading, no event says
  // so; the history knows it, so it is a failing gpu_lost (the daemon's code, one code in every
  // face: issue 21) with UUID, index and when (review r3 #2).
  auto record = monitor_history(core::BurninStatus::completed);
  record.gpus[2].uuid = std::string("GPU-5f1c0e2a-0002");
  const auto why = core::Reading<double>::absent("GPU-00000002, GPU 2 of this history, is not enumerated by the driver");
  edit_samples(record, 2, 1800, [&](core::TelemetrySample& s) {
    s.gpu_temp_c = why;
    s.power_w = why;
    s.sm_clock_mhz = why;
    s.util_gpu_pct = why;
  });
  const auto a = judge_burnin(record);
  const auto* f = find_code(a, "gpu_lost");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, core::Severity::fail);
  EXPECT_EQ(f->gpus, std::vector<int>{2});
  EXPECT_EQ(evidence(*f, "history_index"), "2");
  EXPECT_EQ(evidence(*f, "uuid"), *record.gpus[2].uuid);
  EXPECT_EQ(evidence(*f, "silent_from"), "2026-12-01 00:30:00 UTC");
  EXPECT_NE(f->message.find("not enumerated by the driver"), std::string::npos) << f->message;
  // One reading is enough to answer: a GPU without utilization support is not missing.
  auto partial = monitor_history(core::BurninStatus::completed);
  edit_samples(partial, 2, 0, [&](core::TelemetrySample& s) { s.util_gpu_pct = why; });
  EXPECT_EQ(find_code(judge_burnin(partial), "gpu_lost"), nullptr);
}

TEST(BurninJudge, StragglerBelowToleranceIsNotFlagged) {
  auto r = healthy_burnin();
  edit_samples(r, 5, 0, [](auto& s) { s.tflops = *s.tflops * 0.92; });
  EXPECT_EQ(find_code(judge_burnin(r), "straggler_gpu"), nullptr);
  BurninThresholds strict;
  strict.straggler_tolerance = 0.05;
  EXPECT_NE(find_code(judge_burnin(r, strict), "straggler_gpu"), nullptr);
}

TEST(BurninJudge, TwoGpusCompareWithEachOther) {
  auto r = healthy_burnin(2);
  edit_samples(r, 1, 0, [](auto& s) { s.tflops = *s.tflops * 0.7; });
  const auto a = judge_burnin(r);
  const core::Finding* f = find_code(a, "straggler_gpu");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->gpus, std::vector<int>{1});
}

TEST(BurninJudge, UnfinishedRunIsIncomplete) {
  auto r = healthy_burnin();
  r.run.status = core::BurninStatus::running;
  std::erase_if(r.samples, [](const auto& s) { return s.t_s > 1800; });
  const auto a = judge_burnin(r);
  ASSERT_EQ(a.unverified.size(), 1u);
  EXPECT_NE(a.unverified[0].find("00:30:00 of the planned 01:00:00"), std::string::npos);
}

TEST(BurninJudge, UnreadableTemperatureIsIncompleteNotCool) {
  auto r = healthy_burnin();
  edit_samples(r, 3, 0, [](auto& s) { s.gpu_temp_c = core::Absent{"NVML_ERROR_NOT_SUPPORTED"}; });
  const auto a = judge_burnin(r);
  ASSERT_EQ(a.findings.size(), 1u);
  EXPECT_EQ(a.findings[0].code, "links_carried_no_traffic");
  ASSERT_EQ(a.unverified.size(), 1u);
  EXPECT_NE(a.unverified[0].find("GPU 3: temperature could not be read (NVML_ERROR_NOT_SUPPORTED)"), std::string::npos);
  EXPECT_FALSE(a.gpus[3].median_temp_c.known());
}

TEST(BurninJudge, GpuWithoutSamplesIsIncomplete) {
  auto r = healthy_burnin(4);
  std::erase_if(r.samples, [](const auto& s) { return s.gpu == 2; });
  const auto a = judge_burnin(r);
  ASSERT_EQ(a.unverified.size(), 1u);
  EXPECT_EQ(a.unverified[0], "GPU 2: no telemetry was recorded");
}

TEST(BurninJudge, SoftwareThermalSlowdownIsAWarning) {
  auto r = healthy_burnin();
  edit_samples(r, 1, 600, [](auto& s) { s.clocks_event_reasons = core::clocks_event::sw_thermal_slowdown; });
  const auto a = judge_burnin(r);
  const core::Finding* f = find_code(a, "throttle_reasons");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, core::Severity::warn);
}

TEST(BurninJudge, SafetyStopFailsTheGpu) {
  auto r = healthy_burnin();
  r.events.push_back({6, 900, core::TelemetryEventKind::safety_stop, 0, "load stopped at 88 °C"});
  const auto a = judge_burnin(r);
  const core::Finding* f = find_code(a, "thermal_outlier");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, core::Severity::fail);
  EXPECT_TRUE(a.gpus[6].stopped);
}

// The streaming judge keeps exact distributions: its medians are those of every value, with
// repeats, in any order of arrival.
TEST(BurninJudge, StreamedMediansAreExact) {
  auto r = healthy_burnin(3, 3600, 10);
  std::vector<double> values;
  for (auto& s : r.samples) {
    if (s.gpu != 1) continue;
    const double v = 700 + static_cast<double>((static_cast<int>(s.t_s) * 7919) % 97) / 4;  // repeats, out of order
    s.tflops = v;
    if (s.t_s >= 300) values.push_back(v);
  }
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  const double expected = n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
  EXPECT_DOUBLE_EQ(*judge_burnin(r).gpus[1].median_tflops, expected);
  r.samples.erase(r.samples.begin());  // the other parity
  values.erase(values.begin(), values.end());
  for (const auto& s : r.samples) {
    if (s.gpu == 1 && s.t_s >= 300) values.push_back(*s.tflops);
  }
  std::sort(values.begin(), values.end());
  const std::size_t m = values.size();
  const double expected_m = m % 2 ? values[m / 2] : (values[m / 2 - 1] + values[m / 2]) / 2;
  EXPECT_DOUBLE_EQ(*judge_burnin(r).gpus[1].median_tflops, expected_m);
}

// The warm-up is 10 % of the longer of the planned and the recorded run: samples that looked
// steady while the run was young are left out once it turns out longer than planned.
TEST(BurninJudge, WarmupFollowsARunLongerThanPlanned) {
  auto r = healthy_burnin(4, 2900, 10);
  r.run.planned_duration_s = 1000;  // warm-up 100 s by the plan, 290 s by what was recorded
  edit_samples(r, 2, 290, [](auto& s) { s.tflops = core::Absent{"no load on this GPU (stopped)"}; });
  const auto a = judge_burnin(r);
  EXPECT_FALSE(a.gpus[2].median_tflops.known());
  EXPECT_TRUE(a.gpus[1].median_tflops.known());
}

// A monitor asks for a verdict now and then: finish() leaves the judge as it was.
TEST(BurninJudge, FinishCanBeAskedAgainAndFeedingGoesOn) {
  const auto gallery = burnin_gallery();
  const auto& entry = gallery[1];  // clock drop at 20 min
  BurninJudge judge(entry.record.run, entry.record.gpus);
  std::size_t fed = 0;
  for (const auto& s : entry.record.samples) {
    judge.on_sample(s);
    if (++fed == entry.record.samples.size() / 2) (void)judge.finish(core::BurninStatus::running);
  }
  for (const auto& e : entry.record.events) judge.on_event(e);
  const auto first = judge.finish(core::BurninStatus::completed);
  const auto again = judge.finish(core::BurninStatus::completed);
  const auto whole = judge_burnin(entry.record);
  ASSERT_EQ(first.findings.size(), whole.findings.size());
  for (std::size_t i = 0; i < whole.findings.size(); ++i) {
    EXPECT_EQ(first.findings[i].message, whole.findings[i].message);
    EXPECT_EQ(again.findings[i].message, whole.findings[i].message);
  }
}

}  // namespace
}  // namespace gpuvet::analysis::testing
