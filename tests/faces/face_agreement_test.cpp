// One health judge behind every face (issue 21): each simulated fault `gpuvet sim list` offers is
// run through the monitor daemon (its journal's alerts), then `gpuvet trend --json` and `gpuvet
// report --db --json` read the history it wrote, and the rules file `gpuvet monitor rules` is run
// by promtool over the series the daemon exported (--record-series). Each face must name the same
// finding codes at the same worst severity. A fault added to the simulator without an example
// here fails EveryFaultHasAnExample.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <string>

#include "../cli/cli_runner.hpp"

namespace gpuvet::testing {
namespace {

namespace fs = std::filesystem;
using Worst = std::map<std::string, std::string>;  // code -> worst severity

// One example of each fault family, with the times the four-hour run needs to show it.
const std::map<std::string, std::string>& examples() {
  static const std::map<std::string, std::string> all = {
      {"nvlink-down", "nvlink-down:gpu=1,link=0"},
      {"p2p-disabled", "p2p-disabled:gpu=3"},
      {"pcie-degraded", "pcie-degraded:gpu=3,width=8,at=90m"},
      {"mixed-batch", "mixed-batch:gpu=2,vbios=96.00.99.00.01"},
      {"gpu-missing", "gpu-missing:gpu=7"},
      {"numa-misplaced", "numa-misplaced:gpu=0,node=1"},
      {"thermal-throttle", "thermal-throttle:gpu=4,at=30m"},
      {"xid", "xid:gpu=2,code=48,at=1h"},
      {"nvlink-crc", "nvlink-crc:gpu=2,link=1,per_min=60,at=1h"},
      {"ecc-sbe", "ecc-sbe:gpu=1,per_hour=50"},
      {"gpu-lost", "gpu-lost:gpu=5,at=30m"},
      {"gemm-miscompare", "gemm-miscompare:gpu=3,at=1h"},
      {"busbw-heat", "busbw-heat:gpu=3,per_c=1"},
      {"sdc", "sdc:gpu=4,at=1h"},
      {"straggler", "straggler:gpu=3,factor=0.7"},
      {"slow-link", "slow-link:a=0,b=1,factor=0.5"},
      {"collective-hang", "collective-hang:gpu=2,from_mib=64"},
      {"collective-corrupt", "collective-corrupt:gpu=2"},
      {"vram-short", "vram-short:gpu=1,gib=40"},
      {"vram-bad", "vram-bad:gpu=1,offset_gib=10"},
      {"ecc-dbe", "ecc-dbe:gpu=6,at=1h"},
      {"row-remap-failure", "row-remap-failure:gpu=6,at=1h"},
      {"pcie-replay", "pcie-replay:gpu=2,per_min=20,at=1h"},
      {"util-lag", "util-lag:gpu=3"},
      {"temp-drift", "temp-drift:gpu=5,per_day=20"},
      {"nic-down", "nic-down:nic=0"},
      {"nic-downtrained", "nic-downtrained:nic=0,rate=200"},
  };
  return all;
}

// Further cases: the same families at other severities (an application Xid is info, a loss is
// Xid 79, CRC errors past DCGM's rate fail, replays under DCGM's rate are info), and no fault.
const std::vector<std::string>& more_cases() {
  static const std::vector<std::string> all = {"",
                                               "xid:gpu=2,code=13,at=1h",
                                               "xid:gpu=2,code=79,at=1h",
                                               "nvlink-crc:gpu=2,link=1,per_min=7000,at=1h",
                                               "pcie-replay:gpu=2,per_min=2,at=1h",
                                               "pcie-degraded:gpu=3,gen=4"};
  return all;
}

int rank(const std::string& severity) { return severity == "fail" ? 2 : severity == "warn" ? 1 : 0; }

void add(Worst& w, const std::string& code, const std::string& severity) {
  auto [it, fresh] = w.try_emplace(code, severity);
  if (!fresh && rank(severity) > rank(it->second)) it->second = severity;
}

// The daemon's journal: "alert CODE (SEVERITY): ..." and "alert CODE rose to SEVERITY ...".
Worst daemon_alerts(const std::string& journal) {
  Worst w;
  static const std::regex raised(R"(alert (\w+) \((\w+)\):)"), rose(R"(alert (\w+) rose to (\w+))");
  std::smatch m;
  std::istringstream lines(journal);
  for (std::string line; std::getline(lines, line);) {
    if (std::regex_search(line, m, raised) || std::regex_search(line, m, rose)) add(w, m[1], m[2]);
  }
  return w;
}

Worst json_findings(const std::string& text, const std::vector<std::string>& lists) {
  Worst w;
  const auto j = nlohmann::json::parse(text);
  for (const auto& list : lists) {
    if (!j.contains(list)) continue;
    for (const auto& f : j[list]) add(w, f["code"].get<std::string>(), f["severity"].get<std::string>());
  }
  return w;
}

std::string text_of(const Worst& w) {
  std::string out;
  for (const auto& [code, severity] : w) out += code + "=" + severity + " ";
  return out.empty() ? "(nothing)" : out;
}

std::string run_command(const std::string& command, int& status) {
  std::string out;
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  if (pipe == nullptr) {
    status = -1;
    return out;
  }
  char buf[4096];
  while (std::fgets(buf, sizeof buf, pipe) != nullptr) out += buf;
  status = pclose(pipe);
  return out;
}

// What the rules file says over the recorded series: per code the worst severity any of its
// alerts reached while firing (3 fail, 2 warn, 1 info), asked of promtool as the expected samples.
std::string promtool_test(const std::string& input_series, const Worst& expected) {
  std::string expr =
      "max by (code) (max_over_time(ALERTS{alertstate=\"firing\",code!=\"\",severity=\"fail\"}[5h])) * 3\n"
      "or max by (code) (max_over_time(ALERTS{alertstate=\"firing\",code!=\"\",severity=\"warn\"}[5h])) * 2\n"
      "or max by (code) (max_over_time(ALERTS{alertstate=\"firing\",code!=\"\",severity=\"info\"}[5h]))";
  std::string out = "rule_files:\n  - rules.yml\nevaluation_interval: 1m\ntests:\n";
  std::string series;  // the recorded file, indented into the test group
  std::istringstream lines(input_series);
  for (std::string line; std::getline(lines, line);) {
    if (line.empty() || line[0] == '#') continue;
    series += (line.rfind("interval:", 0) == 0 ? "  - " : "    ") + line + "\n";
  }
  out += series;
  out += "    promql_expr_test:\n      - expr: |\n";
  std::istringstream e(expr);
  for (std::string line; std::getline(e, line);) out += "          " + line + "\n";
  out += "        eval_time: 239m\n        exp_samples:\n";
  for (const auto& [code, severity] : expected) {
    out += "          - labels: '{code=\"" + code + "\"}'\n            value: " + std::to_string(rank(severity) + 1) + "\n";
  }
  if (expected.empty()) out.replace(out.rfind("exp_samples:\n"), 13, "exp_samples: []\n");
  return out;
}

class FaceAgreement : public ::testing::TestWithParam<std::string> {};

TEST_P(FaceAgreement, DaemonTrendReportAndRulesNameTheSameCodesAndWorstSeverities) {
  const std::string fault = GetParam();
  const fs::path dir = fs::path(::testing::TempDir()) / ("faces-" + std::to_string(std::hash<std::string>{}(fault)));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string db = (dir / "history.db").string();
  std::vector<std::string> args = {"monitor", "--sim",    "hgx-h100-8x", "--speed",         "max",
                                   "--duration", "4h", "--db", db, "--listen", "127.0.0.1:0", "--record-series",
                                   (dir / "series.yml").string()};
  if (!fault.empty()) args.insert(args.begin() + 3, {"--fault", fault});
  const auto daemon = run_cli(args);
  ASSERT_EQ(daemon.exit_code, 0) << daemon.err;
  const auto trend = run_cli({"trend", "--db", db, "--json"});
  ASSERT_TRUE(trend.exit_code == 0 || trend.exit_code == 1 || trend.exit_code == 3) << trend.err;
  const auto report = run_cli({"report", "--db", db, "--json"});
  ASSERT_TRUE(report.exit_code == 0 || report.exit_code == 1 || report.exit_code == 3) << report.err;
  // One judge, one verdict: trend and report --db on the same history exit alike (issue 20 review:
  // util-lag left trend incomplete and report passing).
  EXPECT_EQ(trend.exit_code, report.exit_code) << trend.out << report.out;

  const Worst live = daemon_alerts(daemon.err);
  const Worst weekly = json_findings(trend.out, {"findings", "alerts"});
  const Worst rebuilt = json_findings(report.out, {"findings"});
  EXPECT_EQ(text_of(weekly), text_of(live)) << "trend and the daemon differ on " << fault;
  EXPECT_EQ(text_of(rebuilt), text_of(live)) << "report --db and the daemon differ on " << fault;

  // The rules file over the same series.
  const auto rules = run_cli({"monitor", "rules"});
  ASSERT_EQ(rules.exit_code, 0);
  std::ofstream(dir / "rules.yml") << rules.out;
  std::ifstream in(dir / "series.yml");
  const std::string series((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_FALSE(series.empty()) << "--record-series wrote nothing";
  std::ofstream(dir / "test.yml") << promtool_test(series, live);
  int status = 0;
  const std::string said = run_command("cd '" + dir.string() + "' && promtool test rules test.yml", status);
  EXPECT_EQ(status, 0) << "the rules file differs from the daemon on " << fault << " (daemon: " << text_of(live) << "):\n" << said;
}

std::vector<std::string> all_cases() {
  std::vector<std::string> out;
  for (const auto& [name, example] : examples()) out.push_back(example);
  for (const auto& c : more_cases()) out.push_back(c);
  return out;
}

INSTANTIATE_TEST_SUITE_P(EverySimulatedFault, FaceAgreement, ::testing::ValuesIn(all_cases()),
                         [](const ::testing::TestParamInfo<std::string>& param) {
                           std::string name = param.param.empty() ? "no_fault" : param.param;
                           for (char& c : name) {
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           }
                           return name;
                         });

TEST(FaceAgreement, EveryFaultHasAnExample) {
  const auto listed = run_cli({"sim", "list", "--json"});
  ASSERT_EQ(listed.exit_code, 0) << listed.err;
  const auto j = nlohmann::json::parse(listed.out);
  ASSERT_TRUE(j.contains("faults")) << listed.out.substr(0, 400);
  std::size_t n = 0;
  for (const auto& f : j["faults"]) {
    const std::string name = f["name"].get<std::string>();
    EXPECT_EQ(examples().count(name), 1u) << "fault " << name << " has no example in face_agreement_test.cpp";
    ++n;
  }
  EXPECT_EQ(n, examples().size()) << "an example names a fault sim list does not offer";
}

}  // namespace
}  // namespace gpuvet::testing
