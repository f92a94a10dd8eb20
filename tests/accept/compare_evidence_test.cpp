// compare reads evidence only from bundles that match their MANIFEST, and only report.json files
// that keep schema gpuvet.accept/1 (documented words, numbers as numbers, bounded nesting), with
// errors naming the bundle, the file and the field; reading a bundle's burn-in database leaves it
// verifiable. With --key only signed bundles are read, without it the output says what was not
// checked; numbers no hardware gives are refused (issue 20).
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <functional>

#include <unistd.h>

#include "accept/accept_json.hpp"
#include "accept/compare.hpp"
#include "accept_test_support.hpp"
#include "bundle/bundle_dir.hpp"
#include "cli_runner.hpp"
#include "spec/spec_templates.hpp"

namespace gpuvet::accept::testing {
namespace {

namespace fs = std::filesystem;
using gpuvet::testing::run_cli;
using nlohmann::ordered_json;

// A report with a clause number, a heatmap, a series and findings in it.
std::string sample_report() {
  auto out = run_on_sim("nvlink-4plus4-8x", {}, gates_only("hgx-a100-8x"));
  AcceptReport r;
  r.tool_version = "0.1.0";
  r.spec_name = "hgx-a100-8x";
  r.spec_file = "spec.yaml";
  r.machine_source = "simulated";
  r.hostname = "h";
  r.started_utc = "2026-01-01T00:00:00Z";
  r.finished_utc = "2026-01-01T00:00:01Z";
  r.stages = out.stages;
  r.verdict = decide(r.stages, r.why);
  r.stages[4].heatmaps.push_back({"H2D", "GB/s", {"GPU0"}, {"host"}, {{std::nullopt}}, 55.0});
  r.stages[4].clauses.push_back({});
  r.stages[4].clauses.back().id = "bandwidth.h2d";
  r.stages[4].clauses.back().measured = 50.0;
  r.other_findings.push_back({"throttle_active", core::Severity::warn, {2}, "held back", {{"reason", "HW"}}, "cool it"});
  r.stages[7].series.push_back({"temp", "C", {"GPU0"}, {{{0, 40}, {60, 70}}}, {{10, 20}}, {{30, "XID 79"}}});
  r.stages[7].steady_state = std::vector<BurninSteadyState>{{0, 64.0, 689.4, 1782.0}};
  return render_report_json(r);
}

// The error check_report_schema gives after `change` edits the sample report ("" when none).
std::string error_after(const std::function<void(ordered_json&)>& change) {
  auto j = ordered_json::parse(sample_report());
  change(j);
  auto e = check_report_schema(j.dump(), "vendor-b/report.json");
  return e ? e->message : "";
}

TEST(CompareSchema, AReportAsWrittenPassesAndNewFieldsAreAllowed) {
  EXPECT_EQ(error_after([](ordered_json&) {}), "");
  EXPECT_EQ(error_after([](ordered_json& j) { j["notes"] = {"a later field"}; }), "");
}

TEST(CompareSchema, ErrorsNameTheFileAndTheField) {
  EXPECT_EQ(error_after([](ordered_json& j) { j["verdict"] = "maybe"; }),
            "vendor-b/report.json: verdict: expected one of pass, fail, incomplete, found string \"maybe\" "
            "(schema gpuvet.accept/1, docs/json.md)");
  EXPECT_NE(error_after([](ordered_json& j) { j["stages"][4]["clauses"].back()["measured"] = "42"; })
                .find("vendor-b/report.json: stages[4].clauses[" ),
            std::string::npos);
  EXPECT_NE(error_after([](ordered_json& j) { j["stages"][4]["clauses"].back()["measured"] = "42"; })
                .find("].measured: expected a number or null, found string \"42\""),
            std::string::npos);
  EXPECT_NE(error_after([](ordered_json& j) { j["stages"][0]["seconds"] = "1.5"; }).find("stages[0].seconds: expected a number"),
            std::string::npos);
  EXPECT_NE(error_after([](ordered_json& j) { j.erase("machine"); }).find("report.json: machine: missing"), std::string::npos);
  EXPECT_NE(error_after([](ordered_json& j) { j["machine"]["simulated"] = "yes"; }).find("machine.simulated: expected true or false"),
            std::string::npos);
  EXPECT_NE(error_after([](ordered_json& j) { j["stages"][1]["status"] = "fine"; }).find("stages[1].status: expected one of"),
            std::string::npos);
  EXPECT_NE(error_after([](ordered_json& j) { j["other_findings"][0]["severity"] = "bad"; })
                .find("other_findings[0].severity: expected one of info, warn, fail"),
            std::string::npos);
  EXPECT_NE(error_after([](ordered_json& j) { j["other_findings"][0]["gpus"][0] = "2"; }).find("other_findings[0].gpus[0]"),
            std::string::npos);
  EXPECT_NE(error_after([](ordered_json& j) { j["stages"][4]["heatmaps"][0]["values"][0][0] = "55"; })
                .find("stages[4].heatmaps[0].values[0][0]: expected a number or null"),
            std::string::npos);
  EXPECT_NE(error_after([](ordered_json& j) { j["stages"][7]["series"][0]["spans"][0] = {1}; })
                .find("stages[7].series[0].spans[0]: expected [number, number]"),
            std::string::npos);
  EXPECT_NE(error_after([](ordered_json& j) { j["stages"][7]["steady_state"][0]["median_temp_c"] = "64"; })
                .find("stages[7].steady_state[0].median_temp_c: expected a number or null, found string \"64\""),
            std::string::npos);
  EXPECT_NE(error_after([](ordered_json& j) { j["stages"][7]["steady_state"][0]["gpu"] = 0.5; })
                .find("stages[7].steady_state[0].gpu: expected a GPU index"),
            std::string::npos);
  EXPECT_EQ(error_after([](ordered_json& j) { j["stages"][7].erase("steady_state"); }), "");  // an older report
  EXPECT_NE(error_after([](ordered_json& j) { j["schema"] = "gpuvet.accept/2"; }).find("schema: string \"gpuvet.accept/2\""),
            std::string::npos);
  EXPECT_NE(error_after([](ordered_json& j) { j = ordered_json::array(); }).find("expected an object"), std::string::npos);
}

TEST(CompareSchema, DeepNestingIsRefusedBeforeParsing) {
  const std::string deep = std::string(200000, '[') + std::string(200000, ']');
  auto e = check_report_schema(deep, "b/report.json");
  ASSERT_TRUE(e);
  EXPECT_EQ(e->kind, core::ErrorKind::bad_input);
  EXPECT_NE(e->message.find("b/report.json: nested deeper than 64 levels"), std::string::npos) << e->message;
  auto parsed = parse_report_json(deep, "b/report.json");  // every reader, not only compare
  ASSERT_FALSE(parsed.ok());
  EXPECT_NE(parsed.error().message.find("b/report.json: nested deeper than 64 levels"), std::string::npos);
  auto garbage = check_report_schema("{\"schema\": ", "b/report.json");
  ASSERT_TRUE(garbage);
  EXPECT_NE(garbage->message.find("b/report.json: not JSON"), std::string::npos);
}

class CompareEvidence : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("gpuvet-compare-evidence-" + std::to_string(::getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string write(const std::string& name, const std::string& text) {
    std::ofstream(dir_ / name, std::ios::binary) << text;
    return (dir_ / name).string();
  }
  std::string read(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  }
  std::string bundle(const std::string& name, const std::string& profile) {
    const auto spec = write("spec.yaml", gates_only("hgx-a100-8x"));
    const auto out = (dir_ / name).string();
    const auto run = run_cli({"accept", "--spec", spec, "--sim", profile, "--out", out});
    EXPECT_LE(run.exit_code, 1) << run.err;
    return out;
  }
  std::string signed_bundle(const std::string& name, const std::string& profile, const std::string& key) {
    const auto spec = write("spec.yaml", gates_only("hgx-a100-8x"));
    const auto out = (dir_ / name).string();
    const auto run = run_cli({"accept", "--spec", spec, "--sim", profile, "--out", out, "--sign", key});
    EXPECT_LE(run.exit_code, 1) << run.err;
    return out;
  }
  // Rewrites report.json of `bundle` through `change` and regenerates its MANIFEST, as anyone
  // holding the files can.
  void edit_report(const std::string& bundle, const std::function<void(ordered_json&)>& change) {
    auto j = ordered_json::parse(read(fs::path(bundle) / "report.json"));
    change(j);
    std::ofstream(fs::path(bundle) / "report.json", std::ios::binary | std::ios::trunc) << j.dump(2);
    ASSERT_TRUE(bundle::write_manifest(bundle).ok());
  }
  fs::path dir_;
};

// The clause `id` of a report.json, wherever its stage put it.
ordered_json& clause_of(ordered_json& j, const std::string& id) {
  for (auto& stage : j["stages"]) {
    for (auto& c : stage["clauses"]) {
      if (c["id"] == id) return c;
    }
  }
  throw std::runtime_error("no clause " + id);
}

TEST_F(CompareEvidence, WithAKeyOnlyBundlesItsPrivateKeySignedAreRead) {
  const auto key = (dir_ / "buyer.key").string();
  ASSERT_EQ(run_cli({"keygen", "-o", key}).exit_code, 0);
  const auto pub = key + ".pub";
  const auto a = signed_bundle("vendor-a", "hgx-a100-8x", key);
  const auto b = signed_bundle("vendor-b", "nvlink-4plus4-8x", key);
  const auto checked = run_cli({"compare", "--key", pub, a, b});
  EXPECT_EQ(checked.exit_code, 0) << checked.err;
  EXPECT_EQ(checked.err.find("not checked"), std::string::npos) << checked.err;
  const auto unchecked = run_cli({"compare", a, b});
  EXPECT_EQ(unchecked.exit_code, 0) << unchecked.err;
  EXPECT_NE(unchecked.err.find(a + ": has a MANIFEST.sig, not checked: pass --key to check it"), std::string::npos)
      << unchecked.err;
  const auto c = bundle("vendor-c", "hgx-a100-8x");
  const auto bare = run_cli({"compare", a, c});
  EXPECT_NE(bare.err.find(c + ": unsigned: anyone can regenerate this MANIFEST"), std::string::npos) << bare.err;
  const auto refused = run_cli({"compare", "--key", pub, a, c});
  EXPECT_EQ(refused.exit_code, 2);
  EXPECT_NE(refused.err.find(c + ": NOT SIGNED"), std::string::npos) << refused.err;
  EXPECT_EQ(refused.out, "");
  for (const auto& plan : {std::vector<std::string>{"compare", "--plan", "llama-3-8b", "--key", pub, a, c},
                           std::vector<std::string>{"plan", "--model", "llama-3-8b", "--key", pub, "--offer", a, "--offer", c}}) {
    const auto r = run_cli(plan);
    EXPECT_EQ(r.exit_code, 2) << plan[0];
    EXPECT_NE(r.err.find(c + ": NOT SIGNED"), std::string::npos) << r.err;
  }
  EXPECT_LE(run_cli({"plan", "--model", "llama-3-8b", "--key", pub, "--offer", a}).exit_code, 1);
  const auto plan_unchecked = run_cli({"plan", "--model", "llama-3-8b", "--offer", c});
  EXPECT_NE(plan_unchecked.err.find(c + ": unsigned: anyone can regenerate this MANIFEST"), std::string::npos)
      << plan_unchecked.err;
  // The failing offer made to look like a pass, MANIFEST regenerated: only the signature can tell.
  edit_report(b, [](ordered_json& j) { j["verdict"] = "pass"; });
  EXPECT_EQ(run_cli({"compare", a, b}).exit_code, 0);
  const auto forged = run_cli({"compare", "--key", pub, a, b});
  EXPECT_EQ(forged.exit_code, 2);
  EXPECT_NE(forged.err.find(b + ": SIGNATURE INVALID"), std::string::npos) << forged.err;
  const auto loose = write("loose.json", read(fs::path(a) / "report.json"));
  EXPECT_EQ(run_cli({"compare", "--key", pub, a, loose}).exit_code, 2);
}

TEST_F(CompareEvidence, NumbersNoHardwareGivesAreRefusedNamingTheFileAndTheField) {
  const auto a = bundle("vendor-a", "hgx-a100-8x");
  const auto b = bundle("vendor-b", "hgx-a100-8x");
  // A busbw of 1e308 won every row.
  edit_report(b, [](ordered_json& j) {
    ordered_json busbw = clause_of(j, "gpu.count");
    busbw["id"] = "collectives.all_reduce.all";
    busbw["unit"] = "GB/s";
    busbw["measured"] = 1e308;
    j["stages"][0]["clauses"].push_back(busbw);
  });
  const auto busbw = run_cli({"compare", a, b});
  EXPECT_EQ(busbw.exit_code, 2) << busbw.out;
  EXPECT_NE(busbw.err.find(b + "/report.json: stages[0].clauses["), std::string::npos) << busbw.err;
  EXPECT_NE(busbw.err.find("].measured (collectives.all_reduce.all): 1e+308 is above 10000 GB/s"), std::string::npos)
      << busbw.err;
  EXPECT_EQ(busbw.out, "");
  // "-2147483648 GPUs": a GPU count out of int's range reached a conversion.
  const auto c = bundle("vendor-c", "hgx-a100-8x");
  edit_report(c, [](ordered_json& j) { clause_of(j, "gpu.count")["measured"] = 1e308; });
  for (const auto& args : {std::vector<std::string>{"compare", "--plan", "llama-3-8b", a, c},
                           std::vector<std::string>{"plan", "--model", "llama-3-8b", "--offer", c}, std::vector<std::string>{"compare", a, c}}) {
    const auto r = run_cli(args);
    EXPECT_EQ(r.exit_code, 2) << args[0] << ": " << r.out;
    EXPECT_EQ(r.out.find("-2147483648"), std::string::npos) << r.out;
    EXPECT_NE(r.err.find("measured (gpu.count): 1e+308 is above"), std::string::npos) << r.err;
  }
  edit_report(c, [](ordered_json& j) { clause_of(j, "gpu.count")["measured"] = -8; });
  EXPECT_NE(run_cli({"compare", a, c}).err.find("measured (gpu.count): -8 is negative"), std::string::npos);
}

TEST_F(CompareEvidence, ATamperedBundleIsRefusedNamingTheBundleAndTheFile) {
  const auto a = bundle("vendor-a", "hgx-a100-8x");
  const auto b = bundle("vendor-b", "nvlink-4plus4-8x");
  ASSERT_EQ(run_cli({"compare", a, b}).exit_code, 0);
  // The failing offer made to look like a pass: verdict rewritten, MANIFEST untouched.
  std::string text = read(fs::path(b) / "report.json");
  const auto at = text.find("\"verdict\": \"fail\"");
  ASSERT_NE(at, std::string::npos);
  text.replace(at, 17, "\"verdict\": \"pass\"");
  std::ofstream(fs::path(b) / "report.json", std::ios::binary | std::ios::trunc) << text;
  for (const auto& input : {b, b + "/report.json"}) {
    const auto refused = run_cli({"compare", a, input});
    EXPECT_EQ(refused.exit_code, 2) << refused.out;
    EXPECT_NE(refused.err.find(b + ": the bundle differs from its MANIFEST (changed report.json)"), std::string::npos)
        << refused.err;
    EXPECT_EQ(refused.out, "");
  }
}

TEST_F(CompareEvidence, ALooseReportIsCheckedAgainstTheSchemaAndNotedAsUnverified) {
  const auto a = bundle("vendor-a", "hgx-a100-8x");
  auto j = ordered_json::parse(read(fs::path(a) / "report.json"));
  const auto loose = write("loose.json", j.dump(2));
  const auto ok = run_cli({"compare", a, loose});
  EXPECT_EQ(ok.exit_code, 0) << ok.err;
  EXPECT_NE(ok.err.find(loose + " is not in an evidence bundle (no MANIFEST beside it): not verified"), std::string::npos)
      << ok.err;
  j["verdict"] = "maybe";
  const auto maybe = run_cli({"compare", a, write("maybe.json", j.dump(2))});
  EXPECT_EQ(maybe.exit_code, 2);
  EXPECT_NE(maybe.err.find("maybe.json: verdict: expected one of pass, fail, incomplete"), std::string::npos) << maybe.err;
  const auto deep = run_cli({"compare", a, write("deep.json", std::string(100000, '{'))});
  EXPECT_EQ(deep.exit_code, 2);
  EXPECT_NE(deep.err.find("nested deeper than"), std::string::npos) << deep.err;
}

TEST_F(CompareEvidence, ReadingTheBundlesBurninDatabaseLeavesItVerifiable) {
  const auto spec = write("full.yaml", *spec::template_text("hgx-h100-8x"));
  const auto out = (dir_ / "full").string();
  ASSERT_EQ(run_cli({"accept", "--spec", spec, "--sim", "hgx-h100-8x", "--out", out}).exit_code, 0);
  const auto db = (fs::path(out) / "telemetry.db").string();
  ASSERT_TRUE(fs::exists(db));
  const auto report = run_cli({"report", "--db", db});
  EXPECT_EQ(report.exit_code, 0) << report.err;
  const auto again = run_cli({"report", "--db", db, "--json"});
  EXPECT_EQ(again.exit_code, 0) << again.err;
  const auto verify = run_cli({"verify", out});
  EXPECT_EQ(verify.exit_code, 0) << verify.out << verify.err;
  EXPECT_NE(verify.out.find("intact"), std::string::npos) << verify.out;
  // compare reads the database too; a loose copy of the report is a second input that is not
  // the same path.
  const auto copy = write("copy.json", read(fs::path(out) / "report.json"));
  const auto compared = run_cli({"compare", out, copy});
  EXPECT_EQ(compared.exit_code, 0) << compared.err;
  EXPECT_EQ(run_cli({"verify", out}).exit_code, 0);
}

TEST_F(CompareEvidence, TheSameBundleTwiceIsRefusedAndACopyIsNoted) {
  const auto a = bundle("vendor-a", "hgx-a100-8x");
  for (const auto& again : {a, a + "/", a + "/report.json", (fs::path(a) / "." / "report.json").string()}) {
    const auto same = run_cli({"compare", a, again});
    EXPECT_EQ(same.exit_code, 2) << again;
    EXPECT_NE(same.err.find("compare: " + a + " and " + again + " are the same report"), std::string::npos) << same.err;
    EXPECT_EQ(same.out, "");
  }
  fs::copy(a, dir_ / "vendor-a-copy", fs::copy_options::recursive);
  const auto copy = (dir_ / "vendor-a-copy").string();
  const auto twin = run_cli({"compare", a, copy});
  EXPECT_EQ(twin.exit_code, 0) << twin.err;
  EXPECT_NE(twin.err.find(a + " and " + copy + " hold the same report.json (a copy of one run?): every row ties"),
            std::string::npos)
      << twin.err;
  const auto other = run_cli({"compare", a, bundle("vendor-b", "nvlink-4plus4-8x")});
  EXPECT_EQ(other.exit_code, 0);
  EXPECT_EQ(other.err.find("same report"), std::string::npos) << other.err;
}

}  // namespace
}  // namespace gpuvet::accept::testing
