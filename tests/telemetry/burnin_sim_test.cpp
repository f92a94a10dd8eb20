// The simulated burn-in end to end (burn-in model -> runner -> SQLite store -> judge): a clean
// 4 h run of 8 GPUs has no findings, each planted fault is found on the right GPU at the right
// time, the run is deterministic, and a lost or overheating GPU is stopped while the rest go on.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <iostream>

#include "analysis/burnin_judge.hpp"
#include "backends/sim/burnin_sim_backends.hpp"
#include "core/verdict.hpp"
#include "probes/burnin_runner.hpp"
#include "telemetry/telemetry_store.hpp"
#include "telemetry_test_support.hpp"

namespace gpuvet::testing {
namespace {

struct SimRun {
  core::BurninRecord record;
  analysis::BurninAssessment assessment;
  probes::BurninOutcome outcome;
};

SimRun simulate(const std::vector<std::string>& fault_texts, double duration_s = 4 * 3600.0, std::uint64_t seed = 1,
                double interval_s = 1.0, double margin_c = 2.0) {
  std::vector<sim::FaultSpec> faults;
  for (const auto& text : fault_texts) {
    auto f = sim::parse_fault(text);
    EXPECT_TRUE(f) << text;
    faults.push_back(std::move(f).value());
  }
  auto sim = sim::make_sim_burnin("hgx-h100-8x", faults, seed, "bf16");
  EXPECT_TRUE(sim) << (sim ? "" : sim.error().message);
  platform::ManualClock clock(1700000000000);
  core::BurninRunInfo run;
  run.source = "simulated: hgx-h100-8x";
  run.simulated = true;
  run.interval_s = interval_s;
  run.planned_duration_s = duration_s;
  run.faults = fault_texts;
  auto gpus = sim->telemetry->gpus();
  auto store = telemetry::TelemetryStore::create(":memory:", run, *gpus, clock);
  EXPECT_TRUE(store);
  probes::BurninPlan plan;
  plan.duration_s = duration_s;
  plan.interval_s = interval_s;
  plan.shutdown_margin_c = margin_c;
  auto outcome = probes::run_burnin(plan, *sim->telemetry, *sim->stress, *store.value(), clock);
  EXPECT_TRUE(outcome) << (outcome ? "" : outcome.error().message);
  auto record = store.value()->read_back();
  EXPECT_TRUE(record);
  SimRun out{std::move(record).value(), {}, *outcome};
  out.assessment = analysis::judge_burnin(out.record);
  return out;
}

const core::Finding* find(const SimRun& r, const std::string& code) {
  for (const auto& f : r.assessment.findings) {
    if (f.code == code) return &f;
  }
  return nullptr;
}

std::string evidence(const core::Finding& f, const std::string& key) {
  for (const auto& [k, v] : f.evidence) {
    if (k == key) return v;
  }
  return "<missing " + key + ">";
}

// Findings about the GPUs: all but the note that a GEMM-only burn-in leaves the links idle.
std::size_t gpu_findings(const SimRun& r) {
  return static_cast<std::size_t>(std::count_if(r.assessment.findings.begin(), r.assessment.findings.end(),
                                                [](const core::Finding& f) { return f.code != "links_carried_no_traffic"; }));
}

std::string describe(const SimRun& r) {
  std::string out;
  for (const auto& f : r.assessment.findings) out += f.code + ": " + f.message + "\n";
  for (const auto& u : r.assessment.unverified) out += "unverified: " + u + "\n";
  return out;
}

// The GEMM load alone leaves the NVLinks idle: the judge says so (information), nothing else.
TEST(BurninSim, CleanFourHourRunOfEightGpusHasNoFindings) {
  const SimRun r = simulate({});
  ASSERT_EQ(r.assessment.findings.size(), 1u) << describe(r);
  EXPECT_EQ(r.assessment.findings[0].code, "links_carried_no_traffic");
  EXPECT_EQ(r.assessment.findings[0].severity, core::Severity::info);
  EXPECT_TRUE(r.assessment.unverified.empty()) << describe(r);
  EXPECT_EQ(r.record.run.status, core::BurninStatus::completed);
  EXPECT_EQ(r.record.samples.size(), 8u * 4 * 3600);
  ASSERT_EQ(r.assessment.gpus.size(), 8u);
  for (const auto& g : r.assessment.gpus) {
    // 80 % of the H100 SXM's 989 dense bf16 TFLOP/s at the power-capped clock.
    EXPECT_NEAR(*g.median_tflops, 791, 10) << g.gpu;
    EXPECT_GT(*g.median_temp_c, 55);
    EXPECT_LT(*g.max_temp_c, 75);
    EXPECT_NEAR(*g.median_power_w, 690, 10);
  }
}

TEST(BurninSim, SameSeedSameRunOtherSeedOtherNoise) {
  const SimRun a = simulate({}, 600, 7);
  const SimRun b = simulate({}, 600, 7);
  const SimRun c = simulate({}, 600, 8);
  ASSERT_EQ(a.record.samples.size(), b.record.samples.size());
  for (std::size_t i = 0; i < a.record.samples.size(); ++i) {
    auto x = a.record.samples[i];
    auto y = b.record.samples[i];
    x.unix_ms = y.unix_ms = 0;
    ASSERT_EQ(x, y) << i;
  }
  EXPECT_NE(a.record.samples.back().power_w, c.record.samples.back().power_w);
}

TEST(BurninSim, StragglerIsFound) {
  const SimRun r = simulate({"straggler:gpu=5,factor=0.8"});
  const core::Finding* f = find(r, "straggler_gpu");
  ASSERT_NE(f, nullptr) << describe(r);
  EXPECT_EQ(f->gpus, std::vector<int>{5});
  EXPECT_EQ(gpu_findings(r), 1u) << describe(r);
}

TEST(BurninSim, ThermalThrottleIsFoundWithItsTime) {
  const SimRun r = simulate({"thermal-throttle:gpu=3,at=1h"});
  const core::Finding* desync = find(r, "clock_desync");
  ASSERT_NE(desync, nullptr) << describe(r);
  EXPECT_EQ(desync->gpus, std::vector<int>{3});
  // The card heats for a few minutes after its cooling fails before the driver lowers clocks.
  const std::string first = evidence(*desync, "first_drop");
  EXPECT_GE(first, "01:00:00");
  EXPECT_LE(first, "01:15:00");
  const core::Finding* reasons = find(r, "throttle_reasons");
  ASSERT_NE(reasons, nullptr);
  EXPECT_EQ(reasons->gpus, std::vector<int>{3});
  EXPECT_EQ(evidence(*reasons, "sw_thermal_slowdown_first"), first);
  const core::Finding* hot = find(r, "thermal_outlier");
  ASSERT_NE(hot, nullptr);
  EXPECT_EQ(hot->gpus, std::vector<int>{3});
  for (const auto& f2 : r.assessment.findings) {
    if (f2.code != "links_carried_no_traffic") {
      EXPECT_EQ(f2.gpus, std::vector<int>{3}) << f2.code;
    }
  }
}

TEST(BurninSim, XidIsFoundAtItsTime) {
  const SimRun r = simulate({"xid:gpu=2,code=48,at=30m"}, 3600);
  const core::Finding* f = find(r, "xid_event");
  ASSERT_NE(f, nullptr) << describe(r);
  EXPECT_EQ(f->gpus, std::vector<int>{2});
  EXPECT_EQ(evidence(*f, "xid"), "48");
  EXPECT_EQ(evidence(*f, "window"), "00:30:00-00:30:00");
}

// A marginal link counts errors only while traffic crosses it (burnin_traffic_test.cpp loads it).
TEST(BurninSim, NvlinkCrcDoesNotGrowOnAnIdleLink) {
  const SimRun r = simulate({"nvlink-crc:gpu=1,link=4,per_min=5"}, 3600);
  EXPECT_EQ(find(r, "nvlink_errors_growing"), nullptr) << describe(r);
  EXPECT_NE(find(r, "links_carried_no_traffic"), nullptr) << describe(r);
}

TEST(BurninSim, CorrectedEccGrowthIsFound) {
  const SimRun r = simulate({"ecc-sbe:gpu=6,per_hour=20"}, 3600);
  const core::Finding* f = find(r, "ecc_errors_new");
  ASSERT_NE(f, nullptr) << describe(r);
  EXPECT_EQ(f->gpus, std::vector<int>{6});
  EXPECT_EQ(evidence(*f, "corrected_new"), "20");
  EXPECT_EQ(f->severity, core::Severity::warn);
}

TEST(BurninSim, UncorrectableEccIsFoundWithItsXidsAndTheRowRemap) {
  const SimRun r = simulate({"ecc-dbe:gpu=2,at=10m"}, 3600);
  const core::Finding* ecc = find(r, "ecc_errors_new");
  ASSERT_NE(ecc, nullptr) << describe(r);
  EXPECT_EQ(ecc->gpus, std::vector<int>{2});
  EXPECT_EQ(ecc->severity, core::Severity::fail);
  EXPECT_EQ(evidence(*ecc, "uncorrected_new"), "1");
  const core::Finding* remap = find(r, "row_remap_pending");  // H100 remaps rows
  ASSERT_NE(remap, nullptr) << describe(r);
  EXPECT_EQ(remap->gpus, std::vector<int>{2});
  EXPECT_EQ(find(r, "retired_pages"), nullptr);
  int xids = 0;
  for (const auto& f : r.assessment.findings) {
    if (f.code != "xid_event") continue;
    EXPECT_EQ(f.gpus, std::vector<int>{2});
    EXPECT_TRUE(evidence(f, "xid") == "94" || evidence(f, "xid") == "63") << f.message;
    ++xids;
  }
  EXPECT_EQ(xids, 2) << describe(r);
}

TEST(BurninSim, PcieReplaysAreFoundOnTheirGpu) {
  const SimRun r = simulate({"pcie-replay:gpu=5,per_min=30,at=5m"}, 3600);
  const core::Finding* f = find(r, "pcie_replays");
  ASSERT_NE(f, nullptr) << describe(r);
  EXPECT_EQ(f->gpus, std::vector<int>{5});
}

TEST(BurninSim, MemoryFaultsAreCheckedAgainstTheModel) {
  auto consumer = sim::parse_fault("ecc-dbe:gpu=0,at=1m");
  ASSERT_TRUE(consumer);
  EXPECT_FALSE(sim::make_sim_burnin("rtx4090-8x", {*consumer}, 1, "bf16")) << "a GeForce card has no ECC";
  auto failure = sim::parse_fault("row-remap-failure:gpu=0,at=1m");
  ASSERT_TRUE(failure);
  EXPECT_FALSE(sim::make_sim_burnin("dgx1-v100", {*failure}, 1, "bf16")) << "a V100 retires pages instead";
  EXPECT_TRUE(sim::make_sim_burnin("hgx-h100-8x", {*failure}, 1, "bf16"));
}

TEST(BurninSim, GemmMiscompareIsFoundAfterItsTime) {
  const SimRun r = simulate({"gemm-miscompare:gpu=4,at=20m"}, 3600);
  const core::Finding* f = find(r, "compute_miscompare");
  ASSERT_NE(f, nullptr) << describe(r);
  EXPECT_EQ(f->gpus, std::vector<int>{4});
  EXPECT_EQ(evidence(*f, "first_seen"), "00:21:00");  // the first full minute of wrong results
  EXPECT_EQ(evidence(*f, "miscompares"), "40");
  EXPECT_EQ(gpu_findings(r), 1u) << describe(r);
}

TEST(BurninSim, LostGpuIsStoppedAndTheOthersKeepGoing) {
  const SimRun r = simulate({"gpu-lost:gpu=7,at=2h"});
  const core::Finding* f = find(r, "xid_event");
  ASSERT_NE(f, nullptr) << describe(r);
  EXPECT_EQ(f->gpus, std::vector<int>{7});
  EXPECT_EQ(evidence(*f, "xid"), "79");
  EXPECT_EQ(evidence(*f, "window"), "02:00:00-02:00:00");
  EXPECT_EQ(r.outcome.stopped, std::vector<int>{7});
  EXPECT_EQ(r.record.run.status, core::BurninStatus::completed);
  double last7 = 0, last0 = 0;
  for (const auto& s : r.record.samples) {
    (s.gpu == 7 ? last7 : last0) = std::max(s.gpu == 7 ? last7 : last0, s.t_s);
  }
  EXPECT_LE(last7, 2 * 3600.0 + 1);
  EXPECT_EQ(last0, 4 * 3600.0);
  EXPECT_EQ(core::verdict_of(r.assessment.findings, r.assessment.unverified), core::Verdict::fail);
}

TEST(BurninSim, OverheatingGpuIsStoppedAtTheMargin) {
  // With a 6 °C margin (stop at 86 °C) the failed cooling reaches the stop before the driver's
  // slowdown holds it at 87 °C.
  const SimRun r = simulate({"thermal-throttle:gpu=4,at=10m"}, 3600, 1, 1.0, 6.0);
  EXPECT_EQ(r.outcome.stopped, std::vector<int>{4});
  const core::Finding* f = find(r, "thermal_outlier");
  ASSERT_NE(f, nullptr) << describe(r);
  EXPECT_EQ(f->severity, core::Severity::fail);
  EXPECT_EQ(f->gpus, std::vector<int>{4});
}

// The store's cost on disk: an hour of 8 GPUs every second, all fields, in a file (WAL
// checkpointed on close), with one rollup per GPU and minute of run time (samples at 1..3600 s:
// minute 0 holds 59, minute 60 the last one).
TEST(BurninSim, StoreCostsUnder40BytesPerGpuSample) {
  telemetry::testing::TempDb tmp;
  auto sim = sim::make_sim_burnin("hgx-h100-8x", {}, 1, "bf16");
  ASSERT_TRUE(sim);
  platform::ManualClock clock(1700000000000);
  core::BurninRunInfo run;
  run.source = "simulated: hgx-h100-8x";
  run.planned_duration_s = 3600;
  auto gpus = sim->telemetry->gpus();
  std::size_t rollups = 0, rolled = 0;
  platform::SteadyClock wall;  // paces commits as in `gpuvet burnin --sim --db`
  {
    auto store = telemetry::TelemetryStore::create(tmp.path(), run, *gpus, wall);
    ASSERT_TRUE(store);
    probes::BurninPlan plan;
    plan.duration_s = 3600;
    auto outcome = probes::run_burnin(plan, *sim->telemetry, *sim->stress, *store.value(), clock);
    ASSERT_TRUE(outcome);
    ASSERT_FALSE(store.value()->for_each_rollup([&](const telemetry::MinuteRollup& r) {
      ++rollups;
      rolled += r.samples;
      EXPECT_EQ(r.samples, r.minute == 0 ? 59u : r.minute == 60 ? 1u : 60u) << r.gpu << " " << r.minute;
      EXPECT_TRUE(r.tflops && r.gpu_temp_c.mean && r.power_w.mean && r.sm_clock_mhz.mean);
    }));
  }
  EXPECT_EQ(rollups, 8u * 61);
  EXPECT_EQ(rolled, 8u * 3600);
  const auto bytes = std::filesystem::file_size(tmp.path());
  const double per_sample = static_cast<double>(bytes) / (8.0 * 3600);
  EXPECT_LT(per_sample, 40.0) << bytes << " bytes";
  std::cout << "store: " << bytes << " bytes, " << per_sample << " bytes per GPU-sample\n";
  auto loaded = telemetry::load_burnin(tmp.path());
  ASSERT_TRUE(loaded) << loaded.error().message;
  EXPECT_EQ(loaded->samples.size(), 8u * 3600);
}

TEST(BurninSim, FaultParametersAreChecked) {
  for (const char* bad : {"xid:gpu=2,code=0,at=1h", "nvlink-crc:gpu=1,link=40,per_min=5", "gpu-lost:gpu=9,at=1h",
                          "ecc-sbe:gpu=1", "thermal-throttle:gpu=1,at=soon"}) {
    auto f = sim::parse_fault(bad);
    ASSERT_TRUE(f) << bad;
    auto built = sim::make_sim_burnin("hgx-h100-8x", {*f}, 1, "bf16");
    ASSERT_FALSE(built) << bad;
    EXPECT_EQ(built.error().kind, core::ErrorKind::usage) << bad;
  }
}

}  // namespace
}  // namespace gpuvet::testing
