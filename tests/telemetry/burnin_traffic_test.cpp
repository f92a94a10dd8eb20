// The soak with link traffic end to end (burn-in model + simulated traffic -> runner -> SQLite store
// -> judge): a marginal link counts errors only while traffic crosses it and is then named with its
// counts, a card whose links slow when hot is named as the traffic straggler and the fabric's heat
// fade, an sdc card is named with its time, and a clean run with traffic is clean; without traffic
// the judge says the links carried none.
#include <gtest/gtest.h>

#include <algorithm>

#include "analysis/burnin_judge.hpp"
#include "backends/sim/burnin_sim_backends.hpp"
#include "core/finding_codes.hpp"
#include "probes/burnin_runner.hpp"
#include "telemetry/telemetry_store.hpp"
#include "telemetry_test_support.hpp"

namespace gpuvet::testing {
namespace {

struct SoakRun {
  core::BurninRecord record;
  analysis::BurninAssessment assessment;
};

SoakRun soak(const std::vector<std::string>& fault_texts, bool traffic, double duration_s = 2 * 3600.0,
             const std::string& db = ":memory:") {
  std::vector<sim::FaultSpec> faults;
  for (const auto& text : fault_texts) faults.push_back(sim::parse_fault(text).value());
  auto sim = sim::make_sim_burnin("hgx-h100-8x", faults, 1, "bf16");
  EXPECT_TRUE(sim) << (sim ? "" : sim.error().message);
  platform::ManualClock clock(1700000000000);
  probes::BurninPlan plan;
  plan.duration_s = duration_s;
  plan.interval_s = 5;
  if (traffic) plan.traffic.kinds = *core::parse_traffic_kinds("all");
  core::BurninRunInfo run;
  run.source = "simulated: hgx-h100-8x";
  run.simulated = true;
  run.interval_s = plan.interval_s;
  run.planned_duration_s = duration_s;
  run.faults = fault_texts;
  run.traffic = plan.traffic;
  auto store = telemetry::TelemetryStore::create(db, run, *sim->telemetry->gpus(), clock);
  EXPECT_TRUE(store);
  auto outcome = probes::run_burnin(plan, *sim->telemetry, *sim->stress, *store.value(), clock, nullptr, nullptr,
                                    sim->traffic.get());
  EXPECT_TRUE(outcome) << (outcome ? "" : outcome.error().message);
  auto record = store.value()->read_back();
  EXPECT_TRUE(record) << (record ? "" : record.error().message);
  SoakRun out{std::move(record).value(), {}};
  out.assessment = analysis::judge_burnin(out.record);
  return out;
}

const core::Finding* find(const SoakRun& r, std::string_view code) {
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

std::string describe(const SoakRun& r) {
  std::string out;
  for (const auto& f : r.assessment.findings) out += f.code + ": " + f.message + "\n";
  for (const auto& u : r.assessment.unverified) out += "unverified: " + u + "\n";
  return out;
}

TEST(BurninTraffic, CleanRunWithTrafficHasNoFindingsAndBusbwPerInterval) {
  const SoakRun r = soak({}, true);
  EXPECT_TRUE(r.assessment.findings.empty()) << describe(r);
  EXPECT_TRUE(r.assessment.unverified.empty()) << describe(r);
  ASSERT_EQ(r.record.traffic.size(), 120u);  // one a minute for two hours
  EXPECT_EQ(r.record.run.traffic.kinds.size(), 3u);
  for (const auto& i : r.record.traffic) {
    EXPECT_NEAR(i.t_s - i.from_s, 60, 1e-9);
    ASSERT_EQ(i.collectives.size(), 2u);
    EXPECT_GT(*i.collectives[0].busbw_gbps, 100) << "all_reduce on an NVSwitch H100 board";
    EXPECT_EQ(*i.collectives[0].wrong, 0);
    ASSERT_EQ(i.gpus.size(), 8u);
    for (const auto& g : i.gpus) {
      EXPECT_GT(*g.h2d_gbps, 10);
      EXPECT_GT(*g.d2h_gbps, 10);
      EXPECT_TRUE(g.gemm_digest.known());
      EXPECT_EQ(*g.gemm_digest, *i.gpus.front().gemm_digest) << "the same inputs on every GPU of one model";
    }
  }
}

TEST(BurninTraffic, MarginalLinkIsNamedWithItsCountsUnderTraffic) {
  const SoakRun r = soak({"nvlink-crc:gpu=2,link=5,per_min=30"}, true);
  const core::Finding* f = find(r, core::code::link_errors_under_traffic);
  ASSERT_NE(f, nullptr) << describe(r);
  EXPECT_EQ(f->severity, core::Severity::fail);
  EXPECT_EQ(f->gpus, std::vector<int>{2});
  // 30 per minute while the links carry traffic half the time: about 15 a minute for two hours.
  EXPECT_NEAR(std::stod(evidence(*f, "link5_crc_under_traffic")), 1800, 20);
  EXPECT_EQ(evidence(*f, "link5_crc_idle"), "0");
  EXPECT_NE(f->message.find("GPU 2"), std::string::npos);
  EXPECT_NE(f->message.find("link 5"), std::string::npos) << f->message;
  EXPECT_EQ(find(r, core::code::links_carried_no_traffic), nullptr);
  // The health judge sees the same growth, at the rate the link reached under half-time traffic.
  const core::Finding* growing = find(r, core::code::nvlink_errors_growing);
  ASSERT_NE(growing, nullptr) << describe(r);
  EXPECT_EQ(growing->gpus, std::vector<int>{2});
  EXPECT_NEAR(std::stod(evidence(*growing, "link5_crc_flit_per_min")), 15.0, 0.3);
}

TEST(BurninTraffic, WithoutTrafficTheLinkStaysQuietAndTheJudgeSaysSo) {
  const SoakRun r = soak({"nvlink-crc:gpu=2,link=5,per_min=30"}, false);
  EXPECT_EQ(find(r, core::code::nvlink_errors_growing), nullptr) << describe(r);
  EXPECT_EQ(find(r, core::code::link_errors_under_traffic), nullptr) << describe(r);
  const core::Finding* idle = find(r, core::code::links_carried_no_traffic);
  ASSERT_NE(idle, nullptr) << describe(r);
  EXPECT_EQ(idle->severity, core::Severity::info);
  EXPECT_NE(idle->message.find("carried no traffic"), std::string::npos);
  EXPECT_TRUE(r.record.traffic.empty());
}

TEST(BurninTraffic, CardWhoseLinksSlowWhenHotDragsTheGroup) {
  const SoakRun r = soak({"busbw-heat:gpu=3,per_c=1"}, true);
  const core::Finding* hot = find(r, core::code::busbw_fell_when_hot);
  ASSERT_NE(hot, nullptr) << describe(r);
  EXPECT_EQ(hot->gpus, std::vector<int>{3});
  EXPECT_LT(std::stod(evidence(*hot, "steady_busbw_gbps")), 0.9 * std::stod(evidence(*hot, "cold_busbw_gbps")));
  const core::Finding* straggler = find(r, core::code::traffic_straggler);
  ASSERT_NE(straggler, nullptr) << describe(r);
  EXPECT_EQ(straggler->gpus, std::vector<int>{3});
  EXPECT_EQ(find(r, core::code::straggler_gpu), nullptr) << "its GEMMs keep pace";
}

TEST(BurninTraffic, ComputeStragglerIsNotATrafficStraggler) {
  const SoakRun r = soak({"straggler:gpu=5,factor=0.7"}, true, 3600);
  EXPECT_NE(find(r, core::code::straggler_gpu), nullptr) << describe(r);
  EXPECT_EQ(find(r, core::code::traffic_straggler), nullptr) << describe(r);
}

TEST(BurninTraffic, SilentCorruptionNamesTheGpuAndTheTime) {
  const SoakRun r = soak({"sdc:gpu=4,at=30m"}, true);
  const core::Finding* f = find(r, core::code::silent_data_corruption);
  ASSERT_NE(f, nullptr) << describe(r);
  EXPECT_EQ(f->gpus, std::vector<int>{4});
  EXPECT_EQ(evidence(*f, "first_gemm_mismatch"), "00:30:00");  // the interval that ends as it strikes
  EXPECT_EQ(evidence(*f, "first_collective_wrong"), "00:30:00");
  EXPECT_EQ(evidence(*f, "gemm_mismatches"), "91");
  EXPECT_EQ(find(r, core::code::compute_miscompare), nullptr) << "its own reference check passes";
  EXPECT_EQ(std::count_if(r.assessment.findings.begin(), r.assessment.findings.end(),
                          [](const core::Finding& x) { return x.code == core::code::silent_data_corruption; }),
            1);
}

TEST(BurninTraffic, TrafficIntervalsSurviveTheFile) {
  telemetry::testing::TempDb tmp;
  const SoakRun r = soak({"sdc:gpu=1,at=2m"}, true, 600, tmp.path());
  auto loaded = telemetry::load_burnin(tmp.path());
  ASSERT_TRUE(loaded) << loaded.error().message;
  EXPECT_EQ(loaded->run.traffic, r.record.run.traffic);
  ASSERT_EQ(loaded->traffic.size(), 10u);
  EXPECT_EQ(loaded->traffic, r.record.traffic);
  EXPECT_EQ(loaded->traffic.front().gpus.front().h2d_gbps, r.record.traffic.front().gpus.front().h2d_gbps);
}

TEST(BurninTraffic, LostGpuLeavesTheCollectivesAbsentWithTheReason) {
  const SoakRun r = soak({"gpu-lost:gpu=6,at=10m"}, true, 1200);
  ASSERT_FALSE(r.record.traffic.empty());
  const auto& last = r.record.traffic.back();
  ASSERT_FALSE(last.collectives.empty());
  EXPECT_FALSE(last.collectives.front().busbw_gbps.known());
  EXPECT_NE(last.collectives.front().busbw_gbps.reason().find("GPU 6 is lost"), std::string::npos);
}

}  // namespace
}  // namespace gpuvet::testing
