// compare's measured rows on bundles written by `accept --sim` of different profiles (30 min
// burn-in): absolute numbers side by side, each against its own spec and the best of the set,
// the winner of each row and why (higher or lower is better), ties said as ties, and a number a
// bundle lacks shown as "not measured", never a loss. Text, Markdown, HTML and JSON.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <regex>

#include <unistd.h>

#include "accept/compare.hpp"
#include "cli_runner.hpp"
#include "spec/spec_templates.hpp"

namespace gpuvet::accept::testing {
namespace {

namespace fs = std::filesystem;
using gpuvet::testing::run_cli;
using nlohmann::json;

// Bundles shared by the tests of this file (made once: each accept runs a 30 min burn-in in
// virtual time).
class CompareMetrics : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = fs::temp_directory_path() / ("gpuvet-compare-metrics-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    std::string spec = *spec::template_text("hgx-h100-8x");
    spec = std::regex_replace(spec, std::regex("duration: [0-9a-z]+"), "duration: 30m");
    std::ofstream(dir_ / "spec.yaml") << spec;
    accept("h100", {"--sim", "hgx-h100-8x"});
    accept("h100-again", {"--sim", "hgx-h100-8x"});
    accept("l40s", {"--sim", "l40s-8x"});
    accept("h100-hot", {"--sim", "hgx-h100-8x", "--fault", "thermal-throttle:gpu=2,at=5m"});
    accept("h100-quick", {"--sim", "hgx-h100-8x", "--quick"});
    accept("h100-link-down", {"--sim", "hgx-h100-8x", "--fault", "nvlink-down:gpu=2,link=1"});
  }
  static void TearDownTestSuite() { fs::remove_all(dir_); }
  static void accept(const std::string& name, std::vector<std::string> args) {
    std::vector<std::string> cmd = {"accept", "--spec", (dir_ / "spec.yaml").string(), "--out", path(name)};
    cmd.insert(cmd.end(), args.begin(), args.end());
    const auto run = run_cli(cmd);
    ASSERT_NE(run.exit_code, 2) << run.err;
  }
  static std::string path(const std::string& name) { return (dir_ / name).string(); }
  static json compare_json(const std::vector<std::string>& names) {
    std::vector<std::string> cmd = {"compare", "--json"};
    for (const auto& n : names) cmd.push_back(path(n));
    const auto run = run_cli(cmd);
    EXPECT_EQ(run.exit_code, 0) << run.err;
    return json::parse(run.out);
  }
  static json row(const json& j, const std::string& id) {
    for (const auto& r : j["measured"]) {
      if (r["id"] == id) return r;
    }
    ADD_FAILURE() << "no row " << id;
    return json::object();
  }
  static inline fs::path dir_;
};

TEST_F(CompareMetrics, TheFasterMachineWinsBandwidthRowsWithItsNumbersAndWhy) {
  const auto j = compare_json({"h100", "l40s"});
  EXPECT_EQ(j["schema"], "gpuvet.compare/1");
  ASSERT_EQ(j["bundles"].size(), 2u);
  const auto p2p = row(j, "bandwidth.p2p");
  EXPECT_EQ(p2p["unit"], "GB/s");
  EXPECT_EQ(p2p["better"], "higher");
  EXPECT_EQ(p2p["winner"], "h100");
  const double h100 = p2p["cells"][0]["value"];
  const double l40s = p2p["cells"][1]["value"];
  EXPECT_GT(h100, 300.0);  // NVSwitch: hundreds of GB/s per pair
  EXPECT_LT(l40s, 40.0);   // PCIe Gen4 peers
  EXPECT_TRUE(p2p["cells"][0]["best"]);
  EXPECT_NEAR(p2p["cells"][1]["percent_of_best"].get<double>(), l40s / h100 * 100, 1e-6);
  EXPECT_NEAR(p2p["cells"][0]["percent_of_spec"].get<double>(),
              h100 / p2p["cells"][0]["spec_target"].get<double>() * 100, 1e-6);
  EXPECT_NE(p2p["why"].get<std::string>().find("h100: "), std::string::npos) << p2p["why"];
  EXPECT_NE(p2p["why"].get<std::string>().find("higher is better"), std::string::npos) << p2p["why"];
  EXPECT_NE(p2p["why"].get<std::string>().find(fmt::format("{:.1f}x l40s ({:.1f})", h100 / l40s, l40s)), std::string::npos)
      << p2p["why"];
  EXPECT_TRUE(std::regex_search(row(j, "collectives.scaling")["why"].get<std::string>(),
                                std::regex("h100: [0-9.]+ %, [0-9.]+ points above l40s")))
      << row(j, "collectives.scaling")["why"];
  EXPECT_EQ(row(j, "interconnect")["winner"], "h100");
  EXPECT_EQ(row(j, "interconnect")["cells"][1]["text"], "pcie_only, clause failed");  // against the H100 spec
  EXPECT_EQ(row(j, "collectives.all_reduce.all")["winner"], "h100");
  EXPECT_EQ(row(j, "burnin.tflops.slowest")["winner"], "h100");  // 989 vs 362 dense bf16 peaks
  EXPECT_TRUE(row(j, "gpus")["winner"].is_null());
  EXPECT_EQ(row(j, "gpus")["cells"][1]["text"], "8x L40S 48GB");
}

TEST_F(CompareMetrics, LowerIsBetterForTemperatureAndThrottledTime) {
  const auto j = compare_json({"h100-hot", "h100"});
  const auto throttled = row(j, "burnin.throttled");
  EXPECT_EQ(throttled["better"], "lower");
  EXPECT_EQ(throttled["winner"], "h100");
  EXPECT_GT(throttled["cells"][0]["value"].get<double>(), 10.0);
  EXPECT_NE(throttled["why"].get<std::string>().find("lower is better"), std::string::npos) << throttled["why"];
  const auto hot = row(j, "burnin.temperature.max");
  EXPECT_EQ(hot["winner"], "h100");
  EXPECT_GT(hot["cells"][0]["value"].get<double>(), hot["cells"][1]["value"].get<double>());
  EXPECT_TRUE(std::regex_search(hot["why"].get<std::string>(), std::regex("h100: [0-9.]+ °C, [0-9]+ % below h100-hot")))
      << hot["why"];
  EXPECT_EQ(row(j, "burnin.tflops.slowest")["winner"], "h100");  // the throttled GPU is slower
}

TEST_F(CompareMetrics, EqualMachinesTieAndAMissingNumberIsNotALoss) {
  const auto same = compare_json({"h100", "h100-again"});
  EXPECT_EQ(row(same, "bandwidth.p2p")["winner"], "tie");
  EXPECT_NE(row(same, "bandwidth.p2p")["why"].get<std::string>().find("tie: "), std::string::npos);
  const auto quick = compare_json({"h100-quick", "l40s"});
  const auto tflops = row(quick, "burnin.tflops.slowest");
  EXPECT_TRUE(tflops["cells"][0]["value"].is_null());
  EXPECT_FALSE(tflops["cells"][0]["best"]);
  EXPECT_TRUE(tflops["winner"].is_null());  // one number alone wins nothing
  EXPECT_EQ(tflops["why"], "only l40s measured it; h100-quick not measured (not counted as a loss)");
  EXPECT_EQ(row(quick, "bandwidth.p2p")["winner"], "h100-quick");
}

TEST_F(CompareMetrics, AFailedInterconnectClauseIsNotTheBestOfItsClass) {
  // An NVLink down leaves the class nvswitch_full_mesh but fails the clause: not a tie with the
  // healthy machine, and the cell says the clause failed.
  const auto j = compare_json({"h100", "h100-link-down"});
  const auto r = row(j, "interconnect");
  EXPECT_EQ(r["winner"], "h100") << r;
  EXPECT_TRUE(r["cells"][0]["best"].get<bool>());
  EXPECT_FALSE(r["cells"][1]["best"].get<bool>());
  EXPECT_EQ(r["cells"][1]["text"], "nvswitch_full_mesh, clause failed") << r;
}

TEST_F(CompareMetrics, TextMarkdownAndHtmlShowTheSameRows) {
  const auto text = run_cli({"compare", path("h100"), path("l40s"), path("h100-quick")});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("Measured side by side"), std::string::npos);
  EXPECT_NE(text.out.find("not measured"), std::string::npos) << text.out;
  // h100 and h100-quick are the same simulated machine: their copies tie; l40s is far below.
  EXPECT_TRUE(std::regex_search(text.out, std::regex("GPU to GPU copy, lowest pair: tie: h100 [0-9.]+ GB/s, h100-quick [0-9.]+ GB/s")))
      << text.out;
  // The text is wrapped to 120 columns: continuation lines are indented.
  const auto unwrapped = std::regex_replace(text.out, std::regex("\n +"), " ");
  EXPECT_NE(unwrapped.find("; h100-quick not measured (not counted as a loss)"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("Spec clauses"), std::string::npos);
  const auto md = run_cli({"compare", "--markdown", path("h100"), path("l40s")});
  EXPECT_NE(md.out.find("## Measured side by side"), std::string::npos);
  EXPECT_TRUE(std::regex_search(md.out, std::regex(R"(\| GPU to GPU copy, lowest pair \| GB/s \| higher \| \*\*[0-9.]+ \(spec [0-9]+ %, best\)\*\* \|)")))
      << md.out;
  const auto html = run_cli({"compare", "--html", path("h100"), path("l40s")});
  EXPECT_NE(html.out.find("<table id=\"measured\">"), std::string::npos);
  EXPECT_NE(html.out.find("<td class=\"best\">"), std::string::npos);
  EXPECT_EQ(run_cli({"compare", "--json", "--html", path("h100"), path("l40s")}).exit_code, 2);
}

// compare --plan: the bundles ranked as offers for a model with their measured numbers (issue 15).
TEST_F(CompareMetrics, PlanRanksTheBundlesAsOffersWithTheirMeasuredNumbers) {
  const auto run = run_cli({"compare", "--plan", "llama-3-8b", "--tokens", "1e11", "--price", "h100=3", "--price", "l40s=1",
                            "--json", path("h100"), path("l40s"), path("h100-hot")});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto j = json::parse(run.out);
  EXPECT_EQ(j["schema"], "gpuvet.plan/1");
  std::map<std::string, json> offers;
  for (const auto& o : j["offers"]) offers[o["name"]] = o;
  ASSERT_EQ(offers.size(), 3u);
  EXPECT_TRUE(offers["h100"]["cost"].is_number());
  EXPECT_TRUE(offers["h100-hot"]["cost"].is_null());  // no price given: unknown, not zero
  // The throttled GPU's slower GEMMs pace every step: more days on the same machine type.
  EXPECT_GT(offers["h100-hot"]["days"].get<double>(), offers["h100"]["days"].get<double>());
  EXPECT_GT(offers["l40s"]["days"].get<double>(), offers["h100"]["days"].get<double>());
  const auto text = run_cli({"compare", "--plan", "llama-3-8b", path("h100"), path("l40s")});
  EXPECT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("(measured "), std::string::npos) << text.out;  // numbers say they come from the bundle
  // Job options need --plan; a price names an offer; plan reads whole bundles.
  EXPECT_EQ(run_cli({"compare", "--tokens", "1e9", path("h100"), path("l40s")}).exit_code, 2);
  const auto unknown = run_cli({"compare", "--plan", "llama-3-8b", "--price", "nope=1", path("h100"), path("l40s")});
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_NE(unknown.err.find("no offer is called nope (offers: h100, l40s)"), std::string::npos) << unknown.err;
  EXPECT_EQ(run_cli({"compare", "--plan", "llama-3-8b", "--price", "h100=-1", path("h100"), path("l40s")}).exit_code, 2);
  EXPECT_EQ(run_cli({"compare", "--plan", "llama-3-8b", path("h100") + "/report.json", path("l40s")}).exit_code, 2);
}

TEST_F(CompareMetrics, PlanReadsTheClassOfAMeshWithALinkDown) {
  // Observed says "nvswitch_full_mesh, but GPU 2: 17 of 18 NVLink links up": the class is still read.
  const auto run = run_cli({"compare", "--plan", "llama-3-8b", "--json", path("h100"), path("h100-link-down")});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto j = json::parse(run.out);
  for (const auto& o : j["offers"]) EXPECT_EQ(o["interconnect"], "nvswitch_full_mesh") << o["name"];
}

}  // namespace
}  // namespace gpuvet::accept::testing
