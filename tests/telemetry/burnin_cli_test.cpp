// gpuvet burnin and gpuvet report end to end, in-process: verdicts and exit codes, the report
// rebuilt from the database equals the one the run printed, and a crashed run is incomplete.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "analysis/test_burnin_records.hpp"
#include "cli/cli_runner.hpp"
#include "telemetry/telemetry_store.hpp"
#include "telemetry_test_support.hpp"

namespace gpuvet::testing {
namespace {

using telemetry::testing::TempDb;

TEST(BurninCli, CleanSimulatedRunPasses) {
  const auto run = run_cli({"burnin", "--sim", "hgx-h100-8x", "--duration", "1h"});
  EXPECT_EQ(run.exit_code, 0) << run.out << run.err;
  EXPECT_NE(run.out.find("Verdict: PASS"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("simulated: model numbers, not measurements"), std::string::npos);
  EXPECT_NE(run.err.find("burn-in 01:00:00 / 01:00:00"), std::string::npos) << run.err;  // plain progress lines
}

TEST(BurninCli, PlantedFaultFailsAndReportRebuildsTheSameFindings) {
  TempDb tmp;
  const std::string db = tmp.path();
  const auto run = run_cli({"burnin", "--sim", "hgx-h100-8x", "--duration", "2h", "--interval", "5s", "--fault",
                            "straggler:gpu=2,factor=0.7", "--fault", "xid:gpu=6,code=79,at=90m", "--db", db, "--json"});
  ASSERT_EQ(run.exit_code, 1) << run.out << run.err;
  const auto burnin = nlohmann::json::parse(run.out);
  EXPECT_EQ(burnin["schema"], "gpuvet.burnin/1");
  EXPECT_EQ(burnin["verdict"], "fail");
  std::set<std::string> codes;
  for (const auto& f : burnin["findings"]) codes.insert(f["code"].get<std::string>());
  EXPECT_TRUE(codes.count("straggler_gpu"));
  EXPECT_TRUE(codes.count("xid_event"));

  const auto report = run_cli({"report", "--db", db, "--json"});
  ASSERT_EQ(report.exit_code, 1) << report.err;
  const auto rebuilt = nlohmann::json::parse(report.out);
  EXPECT_EQ(rebuilt["findings"], burnin["findings"]);
  EXPECT_EQ(rebuilt["gpus"], burnin["gpus"]);
  EXPECT_EQ(rebuilt["events"], burnin["events"]);
  EXPECT_EQ(rebuilt["command"], "report");
}

// Issue 22's "done when": with traffic the marginal link fails the run, named with its counts, and
// the JSON carries busbw per interval; without traffic the report says the links carried none.
TEST(BurninCli, TrafficNamesTheMarginalLinkAndCarriesBusbwPerInterval) {
  TempDb tmp;
  const std::string db = tmp.path();
  const auto run = run_cli({"burnin", "--sim", "hgx-h100-8x", "--traffic", "all", "--duration", "2h", "--fault",
                            "nvlink-crc:gpu=2,link=5,per_min=30", "--db", db, "--json"});
  ASSERT_EQ(run.exit_code, 1) << run.out << run.err;
  const auto j = nlohmann::json::parse(run.out);
  const nlohmann::json* link = nullptr;
  for (const auto& f : j["findings"]) {
    if (f["code"] == "link_errors_under_traffic") link = &f;
  }
  ASSERT_NE(link, nullptr) << run.out;
  EXPECT_EQ((*link)["severity"], "fail");
  EXPECT_EQ((*link)["gpus"], nlohmann::json::array({2}));
  EXPECT_NE((*link)["message"].get<std::string>().find("link 5"), std::string::npos);
  EXPECT_EQ(j["traffic"]["kinds"], nlohmann::json({"all_reduce", "all_to_all", "copies"}));
  ASSERT_EQ(j["traffic"]["intervals"].size(), 120u);
  const auto& first = j["traffic"]["intervals"][0];
  EXPECT_EQ(first["collectives"][0]["op"], "all_reduce");
  EXPECT_GT(first["collectives"][0]["busbw_gbps"].get<double>(), 100);
  EXPECT_GT(first["gpus"][3]["h2d_gbps"].get<double>(), 10);

  const auto report = run_cli({"report", "--db", db, "--json"});
  ASSERT_EQ(report.exit_code, 1) << report.err;
  const auto rebuilt = nlohmann::json::parse(report.out);
  EXPECT_EQ(rebuilt["traffic"], j["traffic"]);
  EXPECT_EQ(rebuilt["findings"], j["findings"]);
  const auto text = run_cli({"report", "--db", db});
  EXPECT_NE(text.out.find("Link traffic beside the load: all_reduce,all_to_all,copies"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("all_reduce GB/s"), std::string::npos) << text.out;

  const auto idle = run_cli({"burnin", "--sim", "hgx-h100-8x", "--duration", "2h", "--fault", "nvlink-crc:gpu=2,link=5,per_min=30", "--json"});
  ASSERT_EQ(idle.exit_code, 0) << idle.out << idle.err;
  const auto k = nlohmann::json::parse(idle.out);
  ASSERT_EQ(k["findings"].size(), 1u) << idle.out;
  EXPECT_EQ(k["findings"][0]["code"], "links_carried_no_traffic");
  EXPECT_NE(k["findings"][0]["message"].get<std::string>().find("carried no traffic"), std::string::npos);
  EXPECT_EQ(k["traffic"]["kinds"], nlohmann::json::array());
}

TEST(BurninCli, BadTrafficOptionsAreUsageErrors) {
  const auto bad = run_cli({"burnin", "--sim", "hgx-h100-8x", "--duration", "10m", "--traffic", "nccl"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("--traffic 'nccl': expected all_reduce, all_to_all, copies or all"), std::string::npos) << bad.err;
  const auto share = run_cli({"burnin", "--sim", "hgx-h100-8x", "--duration", "10m", "--traffic", "all", "--traffic-share", "1.5"});
  EXPECT_EQ(share.exit_code, 2);
  EXPECT_NE(share.err.find("--traffic-share 1.5"), std::string::npos) << share.err;
}

TEST(BurninCli, CrashedRunIsIncomplete) {
  TempDb tmp;
  platform::ManualClock clock;
  auto record = analysis::testing::healthy_burnin(4, 3600, 10);
  record.run.status = core::BurninStatus::running;
  auto store = telemetry::TelemetryStore::create(tmp.path(), record.run, record.gpus, clock);
  ASSERT_TRUE(store);
  for (const auto& s : record.samples) {
    if (s.t_s <= 1200) {
      ASSERT_FALSE(store.value()->append(s));
    }
  }
  ASSERT_FALSE(store.value()->commit());
  store.value().reset();
  const auto report = run_cli({"report", "--db", tmp.path()});
  EXPECT_EQ(report.exit_code, 3) << report.out << report.err;
  EXPECT_NE(report.out.find("the burn-in did not complete (status: running): 00:20:00 of the planned 01:00:00"),
            std::string::npos)
      << report.out;
  EXPECT_NE(report.out.find("Verdict: INCOMPLETE"), std::string::npos);
}

TEST(BurninCli, UsageErrors) {
  EXPECT_EQ(run_cli({"burnin", "--fault", "xid:gpu=1,code=48,at=1h"}).exit_code, 2);
  EXPECT_EQ(run_cli({"burnin", "--sim", "hgx-h100-8x", "--duration", "four hours"}).exit_code, 2);
  EXPECT_EQ(run_cli({"burnin", "--sim", "hgx-h100-8x", "--interval", "10ms"}).exit_code, 2);
  EXPECT_EQ(run_cli({"burnin", "--sim", "hgx-h100-8x", "--dtype", "int4"}).exit_code, 2);
  EXPECT_EQ(run_cli({"burnin", "--sim", "hgx-h100-8x", "--gpus", "0,9"}).exit_code, 2);
  EXPECT_EQ(run_cli({"burnin", "--sim", "hgx-h100-8x", "--fault", "xid:gpu=1,code=48"}).exit_code, 2);
  EXPECT_EQ(run_cli({"report", "--db", "/nonexistent/run.db"}).exit_code, 2);
}

TEST(BurninCli, ExistingDatabaseIsNeverOverwritten) {
  TempDb tmp;
  ASSERT_EQ(run_cli({"burnin", "--sim", "hgx-h100-4x", "--duration", "10m", "--db", tmp.path()}).exit_code, 0);
  const auto again = run_cli({"burnin", "--sim", "hgx-h100-4x", "--duration", "10m", "--db", tmp.path()});
  EXPECT_EQ(again.exit_code, 2);
  EXPECT_NE(again.err.find("already exists"), std::string::npos) << again.err;
}

TEST(BurninCli, ChosenGpusOnly) {
  const auto run = run_cli({"burnin", "--sim", "hgx-h100-8x", "--duration", "10m", "--gpus", "0,2-3", "--json"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto j = nlohmann::json::parse(run.out);
  ASSERT_EQ(j["gpus"].size(), 3u);
  EXPECT_EQ(j["gpus"][1]["index"], 2);
}

}  // namespace
}  // namespace gpuvet::testing
