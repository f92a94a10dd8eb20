// gpuvet trend end to end, in-process: simulated burn-in databases (a clean 8-GPU machine and one
// whose GPU 3 loses its cooling) and an accept bundle as the baseline; exit codes, the card named,
// the period, the HTML file, and bad input named with exit 2.
#include <gtest/gtest.h>

#include <map>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>
#include <unistd.h>

#include "bundle/bundle_dir.hpp"
#include "cli_runner.hpp"

namespace gpuvet::testing {
namespace {

namespace fs = std::filesystem;

class TrendCommand : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new fs::path(fs::temp_directory_path() / ("gpuvet-trend-" + std::to_string(::getpid())));
    fs::remove_all(*dir_);
    fs::create_directories(*dir_);
    const auto clean = run_cli({"burnin", "--sim", "hgx-h100-8x", "--duration", "6h", "--db", path("clean.db")});
    ASSERT_EQ(clean.exit_code, 0) << clean.out << clean.err;
    const auto hot = run_cli({"burnin", "--sim", "hgx-h100-8x", "--duration", "6h", "--fault", "thermal-throttle:gpu=3,at=10m", "--db",
                              path("hot.db")});
    ASSERT_EQ(hot.exit_code, 1) << hot.out << hot.err;
    const auto spec = run_cli({"spec", "init", "--template", "hgx-h100-8x", "-o", path("spec.yaml")});
    ASSERT_EQ(spec.exit_code, 0) << spec.err;
    std::stringstream text;
    text << std::ifstream(path("spec.yaml")).rdbuf();
    std::string yaml = text.str();
    yaml.replace(yaml.find("duration: 4h"), 12, "duration: 1h");
    std::ofstream(path("spec.yaml"), std::ios::trunc) << yaml;
    const auto accept = run_cli({"accept", "--spec", path("spec.yaml"), "--sim", "hgx-h100-8x", "--out", path("bundle")});
    ASSERT_EQ(accept.exit_code, 0) << accept.out << accept.err;
  }
  static void TearDownTestSuite() {
    fs::remove_all(*dir_);
    delete dir_;
  }
  static std::string path(const std::string& name) { return (*dir_ / name).string(); }
  static nlohmann::json json_of(const CliRun& r) { return nlohmann::json::parse(r.out); }
  static std::vector<std::pair<std::string, std::vector<int>>> codes(const nlohmann::json& j) {
    std::vector<std::pair<std::string, std::vector<int>>> out;
    for (const auto& f : j["findings"]) out.emplace_back(f["code"], f["gpus"].get<std::vector<int>>());
    return out;
  }
  static fs::path* dir_;
};

fs::path* TrendCommand::dir_ = nullptr;

TEST_F(TrendCommand, CleanMachineStandsOutNowhere) {
  const auto r = run_cli({"trend", "--db", path("clean.db")});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("No card stood out from its peers at the same load."), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("The history covers 6.0 h of the 7.0 d asked"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Verdict: PASS"), std::string::npos);
}

TEST_F(TrendCommand, HotCardIsNamedAndFails) {
  const auto r = run_cli({"trend", "--db", path("hot.db"), "--json"});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  const auto j = json_of(r);
  EXPECT_EQ(j["schema"], "gpuvet.trend/1");
  EXPECT_EQ(j["verdict"], "fail");
  const auto found = codes(j);
  ASSERT_FALSE(found.empty()) << r.out;
  EXPECT_EQ(found[0].first, "hotter_than_peers");
  EXPECT_EQ(found[0].second, std::vector<int>{3});
  for (const auto& [code, gpus] : found) EXPECT_EQ(gpus, std::vector<int>{3}) << code;
  ASSERT_EQ(j["gpus"].size(), 8u);
  EXPECT_GT(j["gpus"][3]["temp_above_peers_c"].get<double>(), 15.0);
  EXPECT_LT(std::abs(j["gpus"][0]["temp_above_peers_c"].get<double>()), 5.0);
}

TEST_F(TrendCommand, BaselineKeyChecksTheBundlesSignatureAndWithoutOneTheReportSaysSo) {
  // Issue 20: --baseline believed any bundle whose MANIFEST matched, and took no --key.
  const auto key = path("trend.key");
  ASSERT_EQ(run_cli({"keygen", "-o", key}).exit_code, 0);
  fs::copy(path("bundle"), path("signed"), fs::copy_options::recursive);
  const auto resign = run_cli({"accept", "--spec", path("spec.yaml"), "--sim", "hgx-h100-8x", "--out", path("signed"), "--sign", key});
  ASSERT_EQ(resign.exit_code, 0) << resign.err;
  const auto checked = run_cli({"trend", "--db", path("hot.db"), "--baseline", path("signed"), "--key", key + ".pub", "--json"});
  EXPECT_EQ(checked.exit_code, 1) << checked.out << checked.err;
  for (const auto& note : json_of(checked)["notes"]) EXPECT_EQ(note.get<std::string>().find("MANIFEST"), std::string::npos) << note;
  const auto unsigned_bundle = run_cli({"trend", "--db", path("hot.db"), "--baseline", path("bundle"), "--key", key + ".pub"});
  EXPECT_EQ(unsigned_bundle.exit_code, 2) << unsigned_bundle.out;
  EXPECT_NE(unsigned_bundle.err.find(path("bundle") + ": NOT SIGNED"), std::string::npos) << unsigned_bundle.err;
  const auto unchecked = run_cli({"trend", "--db", path("hot.db"), "--baseline", path("bundle"), "--json"});
  EXPECT_EQ(unchecked.exit_code, 1) << unchecked.err;
  EXPECT_NE(json_of(unchecked)["notes"].dump().find("unsigned: anyone can regenerate this MANIFEST"), std::string::npos)
      << unchecked.out;
  const auto no_baseline = run_cli({"trend", "--db", path("hot.db"), "--key", key + ".pub"});
  EXPECT_EQ(no_baseline.exit_code, 2) << no_baseline.err;
}

TEST_F(TrendCommand, BaselineDriftAgainstTheAcceptanceBundle) {
  const auto r = run_cli({"trend", "--db", path("hot.db"), "--baseline", path("bundle"), "--json"});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  const auto j = json_of(r);
  bool drift = false;
  for (const auto& [code, gpus] : codes(j)) {
    if (code == "baseline_drift") {
      EXPECT_EQ(gpus, std::vector<int>{3});
      drift = true;
    }
  }
  EXPECT_TRUE(drift) << r.out;
  EXPECT_EQ(j["baseline"]["bundle"], path("bundle"));
  EXPECT_NEAR(j["gpus"][0]["baseline"]["temp_c"].get<double>(), j["gpus"][0]["busy_temp_c"].get<double>(), 2.0);
  const auto clean = run_cli({"trend", "--db", path("clean.db"), "--baseline", path("bundle")});
  EXPECT_EQ(clean.exit_code, 0) << clean.out << clean.err;
}

// The baseline is the burn-in's steady state as the acceptance recorded it (report.json
// "steady_state", the judge's medians under load), never read back out of the charts' titles.
TEST_F(TrendCommand, TheBaselineIsTheSteadyStateTheAcceptanceRecorded) {
  std::ifstream in(path("bundle") + "/report.json");
  const auto report = nlohmann::json::parse(in);
  const nlohmann::json* steady = nullptr;
  for (const auto& stage : report["stages"]) {
    if (stage["id"] == "burnin" && stage.contains("steady_state")) steady = &stage["steady_state"];
  }
  ASSERT_NE(steady, nullptr) << "the burn-in stage of report.json has no steady_state";
  ASSERT_EQ(steady->size(), 8u);
  const auto r = run_cli({"trend", "--db", path("clean.db"), "--baseline", path("bundle"), "--json"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  const auto j = json_of(r);
  ASSERT_EQ(j["gpus"].size(), 8u);
  for (std::size_t g = 0; g < 8; ++g) {
    const auto& recorded = (*steady)[g];
    const auto& baseline = j["gpus"][g]["baseline"];
    EXPECT_EQ(baseline["temp_c"], recorded["median_temp_c"]) << g;
    EXPECT_EQ(baseline["sm_clock_mhz"], recorded["median_sm_clock_mhz"]) << g;
    EXPECT_EQ(baseline["power_w"], recorded["median_power_w"]) << g;
  }
}

// Bundles in the field written before report.json carried "steady_state": the baseline comes from
// the burn-in's charts, as it did, within a degree and a few MHz of the recorded steady state.
TEST_F(TrendCommand, AnOlderBundleWithoutTheSteadyStateIsReadFromItsCharts) {
  fs::remove_all(path("old-bundle"));
  fs::copy(path("bundle"), path("old-bundle"), fs::copy_options::recursive);
  std::ifstream in(path("old-bundle") + "/report.json");
  auto report = nlohmann::ordered_json::parse(in);
  in.close();
  for (auto& stage : report["stages"]) stage.erase("steady_state");
  std::ofstream(path("old-bundle") + "/report.json", std::ios::trunc) << report.dump(2);
  ASSERT_TRUE(bundle::write_manifest(path("old-bundle")).ok());
  const auto r = run_cli({"trend", "--db", path("clean.db"), "--baseline", path("old-bundle"), "--json"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  const auto recorded = json_of(run_cli({"trend", "--db", path("clean.db"), "--baseline", path("bundle"), "--json"}));
  const auto j = json_of(r);
  ASSERT_EQ(j["gpus"].size(), 8u);
  for (std::size_t g = 0; g < 8; ++g) {
    const auto& from_charts = j["gpus"][g]["baseline"];
    const auto& from_data = recorded["gpus"][g]["baseline"];
    EXPECT_NEAR(from_charts["temp_c"].get<double>(), from_data["temp_c"].get<double>(), 1.0) << g;
    EXPECT_NEAR(from_charts["sm_clock_mhz"].get<double>(), from_data["sm_clock_mhz"].get<double>(), 5.0) << g;
    EXPECT_NEAR(from_charts["power_w"].get<double>(), from_data["power_w"].get<double>(), 5.0) << g;
  }
}

TEST_F(TrendCommand, ABaselineFromAnotherMachineIsRefused) {
  // An L40S machine's acceptance bundle against an H100 machine's history: every card "drifted"
  // (exit 1, eight baseline_drift fails) before; now bad input naming the GPU and both UUIDs.
  ASSERT_EQ(run_cli({"spec", "init", "--template", "l40s-8x", "-o", path("l40s.yaml")}).exit_code, 0);
  const auto other = run_cli({"accept", "--spec", path("l40s.yaml"), "--sim", "l40s-8x", "--out", path("l40s-bundle")});
  ASSERT_EQ(other.exit_code, 0) << other.out << other.err;
  const auto r = run_cli({"trend", "--db", path("clean.db"), "--baseline", path("l40s-bundle")});
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("--baseline " + path("l40s-bundle") + ": accepted on other GPUs (GPU 0 is GPU-"), std::string::npos) << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
}

TEST_F(TrendCommand, SinceSelectsTheLastPartOfTheHistory) {
  const auto r = run_cli({"trend", "--db", path("clean.db"), "--since", "1h", "--json"});
  ASSERT_EQ(r.exit_code, 3) << r.out << r.err;  // one hour: too short to stand out "for hours", said so
  const auto j = json_of(r);
  EXPECT_EQ(j["period"]["to_unix_ms"].get<std::int64_t>() - j["period"]["from_unix_ms"].get<std::int64_t>(), 3600000);
  EXPECT_EQ(j["period"]["bucket_s"], 60);
  ASSERT_EQ(j["unverified"].size(), 1u);
  EXPECT_NE(j["unverified"][0].get<std::string>().find("too short to judge"), std::string::npos) << j["unverified"];
}

TEST_F(TrendCommand, HtmlFileAndMarkdown) {
  const auto r = run_cli({"trend", "--db", path("hot.db"), "--html", path("trend.html")});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.out.find("HTML report: " + path("trend.html")), std::string::npos);
  std::stringstream html;
  html << std::ifstream(path("trend.html")).rdbuf();
  EXPECT_NE(html.str().find("<svg class=\"linechart\""), std::string::npos);
  EXPECT_FALSE(fs::exists(path("trend.html.tmp")));
  const auto md = run_cli({"trend", "--db", path("hot.db"), "--markdown"});
  EXPECT_NE(md.out.find("## Cards that stand out"), std::string::npos);
}

TEST_F(TrendCommand, BadInputIsNamedWithExit2) {
  auto r = run_cli({"trend", "--db", path("missing.db")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find(path("missing.db")), std::string::npos) << r.err;
  r = run_cli({"trend", "--db", path("spec.yaml")});  // not a database
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find(path("spec.yaml")), std::string::npos) << r.err;
  r = run_cli({"trend", "--db", path("clean.db"), "--since", "7x"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--since '7x'"), std::string::npos) << r.err;
  r = run_cli({"trend", "--db", path("clean.db"), "--json", "--markdown"});
  EXPECT_EQ(r.exit_code, 2);
  r = run_cli({"trend", "--db", path("clean.db"), "--baseline", path("spec.yaml")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("not a directory"), std::string::npos) << r.err;
}

TEST_F(TrendCommand, MonitorHistoryPrunedToHourlyRollups) {
  // A day of gpuvet monitor on the simulator, raw samples kept 6 h: the first 18 h come from the
  // hourly rollups. GPU 5 runs 20 °C hotter each day.
  const auto mon = run_cli({"monitor", "--sim", "hgx-h100-8x", "--fault", "temp-drift:gpu=5,per_day=20", "--speed", "max", "--duration",
                            "1d", "--retention", "raw=6h", "--db", path("monitor.db"), "--listen", "127.0.0.1:0"});
  ASSERT_EQ(mon.exit_code, 0) << mon.err;
  const auto r = run_cli({"trend", "--db", path("monitor.db"), "--since", "1d", "--json"});
  ASSERT_NE(r.exit_code, 2) << r.err;
  const auto j = json_of(r);
  EXPECT_NE(j["notes"].dump().find("come from the hourly rollups"), std::string::npos) << j["notes"];
  const auto found = codes(j);
  ASSERT_FALSE(found.empty()) << r.out;
  EXPECT_EQ(found[0].first, "hotter_than_peers");
  EXPECT_EQ(found[0].second, std::vector<int>{5});
  const auto& points = j["gpus"][0]["points"];
  ASSERT_GE(points.size(), 20u);
  EXPECT_TRUE(points[0]["from_rollups"].get<bool>());
  EXPECT_FALSE(points[points.size() - 1]["from_rollups"].get<bool>());
  EXPECT_FALSE(points[0]["util_pct"].is_null());  // hourly rollups keep utilization
}

TEST_F(TrendCommand, AGpuThatLaggedItsPeersIsNotComparedAndNotPassed) {
  // GPU 3 at 60 % of its peers' utilization for 6 h: it never ran at their load, so the peer
  // comparison did not judge it; the report names it and cannot say PASS.
  const auto mon = run_cli({"monitor", "--sim", "hgx-h100-8x", "--fault", "util-lag:gpu=3", "--speed", "max", "--duration", "6h",
                            "--db", path("lag.db"), "--listen", "127.0.0.1:0"});
  ASSERT_EQ(mon.exit_code, 0) << mon.err;
  const auto r = run_cli({"trend", "--db", path("lag.db"), "--json"});
  EXPECT_EQ(r.exit_code, 3) << r.out << r.err;
  const auto j = json_of(r);
  EXPECT_EQ(j["verdict"], "incomplete");
  ASSERT_EQ(j["unverified"].size(), 1u) << j["unverified"];
  const std::string why = j["unverified"][0];
  EXPECT_NE(why.find("GPU 3 ran at its peers' load for 0 min"), std::string::npos) << why;
  EXPECT_NE(why.find("utilization_below_peers"), std::string::npos) << why;
  // The daemon's alert, with its definition, is a finding of the period too.
  const auto found = codes(j);
  ASSERT_EQ(found.size(), 1u) << j["findings"];
  EXPECT_EQ(found[0].first, "utilization_below_peers");
  EXPECT_EQ(found[0].second, std::vector<int>{3});
}

TEST_F(TrendCommand, HoursKeptOnlyAsHourlyRollupsAreJudged) {
  // 12 h with NVLink CRC errors on GPU 2 from 2 h and GPU 4 throttled from 4 h, then a restart
  // and 18 h without faults; raw samples kept 6 h: every fault hour is a rollup hour.
  auto mon = run_cli({"monitor", "--sim", "hgx-h100-8x", "--speed", "max", "--duration", "12h", "--retention", "raw=6h", "--db",
                      path("rollups.db"), "--listen", "127.0.0.1:0", "--fault", "nvlink-crc:gpu=2,link=3,per_min=30,at=2h", "--fault",
                      "thermal-throttle:gpu=4,at=4h"});
  ASSERT_EQ(mon.exit_code, 0) << mon.err;
  mon = run_cli({"monitor", "--sim", "hgx-h100-8x", "--speed", "max", "--duration", "18h", "--retention", "raw=6h", "--db",
                 path("rollups.db"), "--listen", "127.0.0.1:0"});
  ASSERT_EQ(mon.exit_code, 0) << mon.err;
  const auto r = run_cli({"trend", "--db", path("rollups.db"), "--json"});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  const auto j = json_of(r);
  EXPECT_EQ(j["verdict"], "fail");
  std::vector<std::pair<std::string, std::vector<int>>> alerts;
  for (const auto& f : j["alerts"]) alerts.emplace_back(f["code"], f["gpus"].get<std::vector<int>>());
  const auto has = [](const auto& list, const std::string& code, int gpu) {
    return std::find(list.begin(), list.end(), std::make_pair(code, std::vector<int>{gpu})) != list.end();
  };
  EXPECT_TRUE(has(alerts, "nvlink_errors_growing", 2)) << j["alerts"];
  EXPECT_TRUE(has(alerts, "throttle_reasons", 4)) << j["alerts"];
  // 8 h hot of 30 h: less than half, but hours in a row.
  EXPECT_TRUE(has(codes(j), "hotter_than_peers", 4)) << j["findings"];
  for (const auto& f : j["alerts"]) {
    if (f["code"] != "nvlink_errors_growing") continue;
    const std::string message = f["message"];
    EXPECT_NE(message.find("at most 30.0/min"), std::string::npos) << message;  // the fault's rate, not diluted
    EXPECT_NE(message.find(" UTC"), std::string::npos) << message;
  }
  ASSERT_FALSE(j["judged"]["hourly_rollups"].is_null()) << j["judged"];
  ASSERT_FALSE(j["judged"]["raw_samples"].is_null()) << j["judged"];
  EXPECT_NEAR(j["judged"]["hourly_rollups"]["to_unix_ms"].get<double>(), j["judged"]["raw_samples"]["from_unix_ms"].get<double>(), 1000);
  const auto text = run_cli({"trend", "--db", path("rollups.db"), "--markdown"});
  EXPECT_EQ(text.out.find("throttling alert in the period"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("Judged from hourly rollups from"), std::string::npos) << text.out;
  // report --db judges those hours as trend does: no PASS over faults the raw samples lost (review r3 #6).
  const auto report = run_cli({"report", "--db", path("rollups.db"), "--json"});
  EXPECT_EQ(report.exit_code, 1) << report.out << report.err;
  const auto rj = json_of(report);
  EXPECT_EQ(rj["verdict"], "fail");
  EXPECT_TRUE(has(codes(rj), "nvlink_errors_growing", 2)) << rj["findings"];
  EXPECT_TRUE(has(codes(rj), "throttle_reasons", 4)) << rj["findings"];
}

TEST_F(TrendCommand, GpuMissingSinceARestartFailsTrendAndReport) {
  // A day on 8 GPUs, then a restart on which GPU 2 is not enumerated: the history knows it, so both
  // reports fail it by UUID and history index (review r3 #2).
  auto mon = run_cli({"monitor", "--sim", "hgx-h100-8x", "--speed", "max", "--duration", "1h", "--db", path("missing.db"),
                      "--listen", "127.0.0.1:0"});
  ASSERT_EQ(mon.exit_code, 0) << mon.err;
  mon = run_cli({"monitor", "--sim", "hgx-h100-8x", "--speed", "max", "--duration", "2h", "--db", path("missing.db"), "--listen",
                 "127.0.0.1:0", "--fault", "gpu-missing:gpu=2"});
  ASSERT_EQ(mon.exit_code, 0) << mon.err;
  const auto named = [](const nlohmann::json& list) {
    for (const auto& f : list) {
      if (f["code"] == "gpu_lost" && f["gpus"] == nlohmann::json::array({2}) && f["severity"] == "fail") return f;
    }
    return nlohmann::json();
  };
  const auto trend = run_cli({"trend", "--db", path("missing.db"), "--json"});
  EXPECT_EQ(trend.exit_code, 1) << trend.out << trend.err;
  const auto t = named(json_of(trend)["alerts"]);
  ASSERT_FALSE(t.is_null()) << json_of(trend)["alerts"];
  EXPECT_NE(std::string(t["message"]).find("GPU-"), std::string::npos) << t["message"];
  EXPECT_NE(std::string(t["message"]).find("GPU 2 of this history"), std::string::npos) << t["message"];
  const auto report = run_cli({"report", "--db", path("missing.db"), "--json"});
  EXPECT_EQ(report.exit_code, 1) << report.out << report.err;
  EXPECT_FALSE(named(json_of(report)["findings"]).is_null()) << json_of(report)["findings"];
}

TEST_F(TrendCommand, XidSeverityAsTheDaemonJudgesIt) {
  // NVLink5 RLW (145) fails as in the daemon's alert; an application's Xid 13 is info (review r3 #1).
  const auto mon = run_cli({"monitor", "--sim", "hgx-h100-8x", "--speed", "max", "--duration", "2h", "--db", path("xid.db"),
                            "--listen", "127.0.0.1:0", "--fault", "xid:gpu=2,code=145,at=1h", "--fault", "xid:gpu=1,code=13,at=1h"});
  ASSERT_EQ(mon.exit_code, 0) << mon.err;
  for (const char* command : {"trend", "report"}) {
    const auto r = run_cli({command, "--db", path("xid.db"), "--json"});
    EXPECT_EQ(r.exit_code, 1) << command << r.out << r.err;
    const auto j = json_of(r);
    std::map<int, std::string> severity;
    for (const auto& f : j[std::string(command) == "trend" ? "alerts" : "findings"]) {
      if (f["code"] == "xid_event") severity[f["gpus"][0].get<int>()] = f["severity"];
    }
    EXPECT_EQ(severity[2], "fail") << command;
    EXPECT_EQ(severity[1], "info") << command;
  }
}

TEST_F(TrendCommand, NoHoleWhereRollupsMeetRawSamples) {
  // Raw samples kept 1 h of 3 h: the hour they cover in part comes from its rollup less them.
  const auto mon = run_cli({"monitor", "--sim", "l40s-8x", "--speed", "max", "--duration", "3h", "--retention", "raw=1h", "--db",
                            path("l40.db"), "--listen", "127.0.0.1:0"});
  ASSERT_EQ(mon.exit_code, 0) << mon.err;
  const auto r = run_cli({"trend", "--db", path("l40.db"), "--json"});
  ASSERT_NE(r.exit_code, 2) << r.err;
  const auto j = json_of(r);
  for (const auto& g : j["gpus"]) {
    std::size_t samples = 0;
    for (const auto& p : g["points"]) samples += p["samples"].get<std::size_t>();
    EXPECT_NEAR(static_cast<double>(samples), 3 * 3600.0, 2) << "GPU " << g["gpu"];
  }
  const auto text = run_cli({"trend", "--db", path("l40.db")});
  EXPECT_NE(text.out.find("3.0 h"), std::string::npos) << text.out;
  EXPECT_EQ(text.out.find("2.2 h"), std::string::npos) << text.out;
}

TEST_F(TrendCommand, RawWindowRatesAndXidActionsAsTheDaemonSaysThem) {
  // NVLink CRC at 30 per minute for the last hour of 6, and an Xid 79.
  const auto mon = run_cli({"monitor", "--sim", "hgx-h100-8x", "--speed", "max", "--duration", "6h", "--db", path("rates.db"),
                            "--listen", "127.0.0.1:0", "--fault", "nvlink-crc:gpu=1,link=0,per_min=30,at=5h", "--fault",
                            "xid:gpu=6,code=79,at=3h"});
  ASSERT_EQ(mon.exit_code, 0) << mon.err;
  const auto r = run_cli({"trend", "--db", path("rates.db"), "--json"});
  ASSERT_NE(r.exit_code, 2) << r.err;
  const auto j = json_of(r);
  bool nvlink = false, xid = false;
  for (const auto& f : j["alerts"]) {
    const std::string message = f["message"];
    if (f["code"] == "nvlink_errors_growing") {
      nvlink = true;
      EXPECT_NE(message.find("30.0/min from"), std::string::npos) << message;  // over the hour it grew, not the 6 h
      EXPECT_NE(message.find(" UTC"), std::string::npos) << message;
    }
    if (f["code"] == "xid_event") {
      xid = true;
      EXPECT_NE(message.find("NVIDIA's action"), std::string::npos) << message;
      EXPECT_EQ(std::string(f["next_step"]).find("Look the Xid up"), std::string::npos) << f["next_step"];
      EXPECT_NE(message.find(" UTC"), std::string::npos) << message;
    }
  }
  EXPECT_TRUE(nvlink) << j["alerts"];
  EXPECT_TRUE(xid) << j["alerts"];
}

TEST_F(TrendCommand, ReportDbOnAMonitorHistory) {
  // gpuvet report --db reads a monitor's database as a burn-in's: steady state from the samples
  // under load, and no plan to compare the recorded time with.
  const auto mon = run_cli({"monitor", "--sim", "hgx-h100-8x", "--speed", "max", "--duration", "1h", "--db", path("report.db"),
                            "--listen", "127.0.0.1:0"});
  ASSERT_EQ(mon.exit_code, 0) << mon.err;
  const auto text = run_cli({"report", "--db", path("report.db")});
  // An hour is too short for the peer rules (a card must stand out for 2 h): incomplete, as trend says.
  EXPECT_EQ(text.exit_code, 3) << text.out << text.err;
  EXPECT_NE(text.out.find("too short to judge"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("a monitor has no planned duration"), std::string::npos) << text.out;
  EXPECT_EQ(text.out.find("planned, status"), std::string::npos) << text.out;
  const auto r = run_cli({"report", "--db", path("report.db"), "--json"});
  const auto j = json_of(r);
  ASSERT_EQ(j["gpus"].size(), 8u);
  for (const auto& g : j["gpus"]) {
    EXPECT_TRUE(g["median_temp_c"].is_number()) << g;
    EXPECT_TRUE(g["median_power_w"].is_number()) << g;
    EXPECT_TRUE(g["median_sm_clock_mhz"].is_number()) << g;
    EXPECT_TRUE(g["median_tflops"].is_null()) << g;
  }
}

TEST_F(TrendCommand, TamperedBaselineIsRefused) {
  fs::copy(path("bundle"), path("tampered"), fs::copy_options::recursive);
  std::ofstream(path("tampered") + "/report.json", std::ios::app) << " ";
  const auto r = run_cli({"trend", "--db", path("clean.db"), "--baseline", path("tampered")});
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_NE(r.err.find("report.json"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace gpuvet::testing
