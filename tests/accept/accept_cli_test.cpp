// gpuvet spec / accept / verify / compare end to end, in-process, with bundles in a temp dir.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <regex>

#include <unistd.h>

#include "accept_test_support.hpp"
#include "cli_runner.hpp"
#include "spec/spec_templates.hpp"

namespace gpuvet::accept::testing {
namespace {

namespace fs = std::filesystem;
using gpuvet::testing::run_cli;

class AcceptCli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("gpuvet-accept-test-" + std::to_string(::getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string write(const std::string& name, const std::string& text) {
    const auto path = (dir_ / name).string();
    std::ofstream(path) << text;
    return path;
  }
  std::string read(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  }
  fs::path dir_;
};

TEST_F(AcceptCli, SpecInitListCheck) {
  auto list = run_cli({"spec", "list"});
  EXPECT_EQ(list.exit_code, 0);
  EXPECT_NE(list.out.find("hgx-h100-8x"), std::string::npos);
  const auto file = (dir_ / "s.yaml").string();
  EXPECT_EQ(run_cli({"spec", "init", "--template", "hgx-h100-8x", "-o", file}).exit_code, 0);
  EXPECT_EQ(run_cli({"spec", "init", "--template", "hgx-h100-8x", "-o", file}).exit_code, 2);  // exists
  auto check = run_cli({"spec", "check", file});
  EXPECT_EQ(check.exit_code, 0) << check.err;
  EXPECT_NE(check.out.find("collectives.all_reduce.all"), std::string::npos);
  auto bad = run_cli({"spec", "check", write("bad.yaml", "gpu:\n  model: h100-sxm5-80gb\n  colour: green\n")});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("line 3: gpu.colour: unknown key"), std::string::npos) << bad.err;
  EXPECT_EQ(run_cli({"spec", "init", "--template", "nope"}).exit_code, 2);
}

TEST_F(AcceptCli, CleanMachinePassesAndTheBundleVerifies) {
  const auto spec = write("spec.yaml", gates_only("hgx-h100-8x"));
  const auto out = (dir_ / "out").string();
  auto run = run_cli({"accept", "--spec", spec, "--sim", "hgx-h100-8x", "--out", out});
  EXPECT_EQ(run.exit_code, 0) << run.out << run.err;
  EXPECT_NE(run.out.find("Verdict: PASS"), std::string::npos);
  EXPECT_NE(run.err.find("[1/8] inventory"), std::string::npos);
  for (const char* f : {"machine.json", "topology.txt", "spec.yaml", "versions.json", "report.json", "report.md", "junit.xml",
                        "report.html", "state.json", "MANIFEST"}) {
    EXPECT_TRUE(fs::exists(fs::path(out) / f)) << f;
  }
  EXPECT_EQ(read(fs::path(out) / "spec.yaml"), read(spec));
  auto verify = run_cli({"verify", out});
  EXPECT_EQ(verify.exit_code, 0) << verify.out << verify.err;
  EXPECT_NE(verify.out.find("intact"), std::string::npos);
}

TEST_F(AcceptCli, FullTemplatePassesWithTheBurninDatabaseInTheBundle) {
  const auto spec = write("full.yaml", *spec::template_text("hgx-h100-8x"));
  const auto out = (dir_ / "full").string();
  auto run = run_cli({"accept", "--spec", spec, "--sim", "hgx-h100-8x", "--out", out});
  EXPECT_EQ(run.exit_code, 0) << run.out << run.err;
  EXPECT_NE(run.out.find("PASS    collectives.scaling"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("PASS    burnin"), std::string::npos) << run.out;
  const auto db = fs::path(out) / "telemetry.db";
  ASSERT_TRUE(fs::exists(db));
  EXPECT_NE(read(fs::path(out) / "MANIFEST").find("telemetry.db"), std::string::npos);
  EXPECT_EQ(run_cli({"verify", out}).exit_code, 0);
  // The burn-in report rebuilds from the bundle's database alone.
  auto report = run_cli({"report", "--db", db.string()});
  EXPECT_EQ(report.exit_code, 0) << report.out << report.err;
  EXPECT_NE(report.out.find("04:00:00"), std::string::npos) << report.out;
  // A straggler fails the collectives and the burn-in, each naming GPU 3.
  auto slow = run_cli({"accept", "--no-bundle", "--spec", spec, "--sim", "hgx-h100-8x", "--fault", "straggler:gpu=3,factor=0.7"});
  EXPECT_EQ(slow.exit_code, 1);
  EXPECT_NE(slow.out.find("collectives.all_reduce.all failed: GPU 3 "), std::string::npos) << slow.out;
  EXPECT_NE(slow.out.find("burnin failed: GPU 3 "), std::string::npos) << slow.out;
}

TEST_F(AcceptCli, APcieLinkThatNarrowsUnderLoadFailsTheBurnin) {
  // Issue 20: the PCIe gate runs before the load; a riser that downtrains when hot passed accept
  // and burnin because the burn-in judge looked only at replays. The health judge watches the link.
  const auto spec = write("full.yaml", *spec::template_text("hgx-h100-8x"));
  const std::string fault = "pcie-degraded:gpu=3,width=8,at=1h";
  auto run = run_cli({"accept", "--no-bundle", "--spec", spec, "--sim", "hgx-h100-8x", "--fault", fault});
  EXPECT_EQ(run.exit_code, 1) << run.out << run.err;
  EXPECT_NE(run.out.find("burnin failed: GPU 3: PCIe link at Gen 5 x8 of Gen 5 x16"), std::string::npos) << run.out;
  auto burnin = run_cli({"burnin", "--sim", "hgx-h100-8x", "--fault", fault, "--duration", "2h", "--json"});
  EXPECT_EQ(burnin.exit_code, 1) << burnin.out << burnin.err;
  EXPECT_NE(burnin.out.find("\"pcie_link_degraded\""), std::string::npos) << burnin.out;
}

TEST_F(AcceptCli, VerifyCatchesAOneByteChangeAMissingAndAnAddedFile) {
  const auto spec = write("spec.yaml", gates_only("hgx-h100-8x"));
  const fs::path out = dir_ / "out";
  ASSERT_EQ(run_cli({"accept", "--spec", spec, "--sim", "hgx-h100-8x", "--out", out.string()}).exit_code, 0);
  {
    std::fstream f(out / "report.json", std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(20);
    char c = 0;
    f.seekg(20);
    f.get(c);
    f.seekp(20);
    f.put(static_cast<char>(c ^ 1));
  }
  auto changed = run_cli({"verify", out.string()});
  EXPECT_EQ(changed.exit_code, 1);
  EXPECT_NE(changed.out.find("changed  report.json"), std::string::npos) << changed.out;
  fs::remove(out / "junit.xml");
  std::ofstream(out / "extra.txt") << "x";
  auto more = run_cli({"verify", out.string()});
  EXPECT_EQ(more.exit_code, 1);
  EXPECT_NE(more.out.find("missing  junit.xml"), std::string::npos);
  EXPECT_NE(more.out.find("added    extra.txt"), std::string::npos);
  EXPECT_EQ(run_cli({"verify", dir_.string()}).exit_code, 2);  // no MANIFEST
}

TEST_F(AcceptCli, TrapsFailWithExitOne) {
  const auto a100 = write("a100.yaml", gates_only("hgx-a100-8x"));
  auto trap = run_cli({"accept", "--no-bundle", "--spec", a100, "--sim", "nvlink-4plus4-8x"});
  EXPECT_EQ(trap.exit_code, 1);
  EXPECT_NE(trap.out.find("interconnect failed"), std::string::npos) << trap.out;
  const auto h100 = write("h100.yaml", gates_only("hgx-h100-8x"));
  auto l40s = run_cli({"accept", "--no-bundle", "--spec", h100, "--sim", "l40s-8x"});
  EXPECT_EQ(l40s.exit_code, 1);
  EXPECT_NE(l40s.out.find("workload failed"), std::string::npos) << l40s.out;
  auto batch = run_cli({"accept", "--no-bundle", "--spec", h100, "--sim", "hgx-h100-8x", "--fault", "mixed-batch:gpu=2,vbios=96.00.30.00.01"});
  EXPECT_EQ(batch.exit_code, 1);
  EXPECT_NE(batch.out.find("gpu.same_batch failed"), std::string::npos) << batch.out;
}

TEST_F(AcceptCli, QuickFullTemplateIsIncompleteWithExitThree) {
  // The full template: burn-in is skipped by --quick, and stages not built report not run.
  const auto spec = write("full.yaml", *spec::template_text("hgx-h100-8x"));
  const auto out = (dir_ / "quick").string();
  const auto start = std::chrono::steady_clock::now();
  auto run = run_cli({"accept", "--spec", spec, "--sim", "hgx-h100-8x", "--quick", "--out", out});
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(run.exit_code, 3) << run.out;
  EXPECT_NE(run.out.find("burnin not run: skipped by --quick"), std::string::npos) << run.out;
  EXPECT_LT(seconds, 60.0);
  RecordProperty("accept_quick_sim_hgx_h100_8x_seconds", std::to_string(seconds));
  // The JUnit file never shows a not-run clause as green.
  const auto junit = read(fs::path(out) / "junit.xml");
  EXPECT_NE(junit.find("<error message=\"not run: skipped by --quick\" type=\"not_run\">"), std::string::npos);
}

TEST_F(AcceptCli, RerunResumesCompletedStages) {
  const auto spec = write("spec.yaml", gates_only("hgx-h100-8x") + "bandwidth: {h2d_gbps: auto, p2p_gbps: auto}\n");
  const auto out = (dir_ / "out").string();
  ASSERT_EQ(run_cli({"accept", "--spec", spec, "--sim", "hgx-h100-8x", "--out", out}).exit_code, 0);
  auto again = run_cli({"accept", "--spec", spec, "--sim", "hgx-h100-8x", "--out", out});
  EXPECT_EQ(again.exit_code, 0);
  EXPECT_NE(again.err.find("resuming from"), std::string::npos) << again.err;
  EXPECT_NE(again.err.find("bandwidth"), std::string::npos);
  EXPECT_NE(again.err.find(", resumed)"), std::string::npos) << again.err;
  // Another machine in the same directory starts afresh; the earlier bundle is kept aside, whole.
  auto other = run_cli({"accept", "--spec", spec, "--sim", "hgx-h100-8x", "--fault", "gpu-missing:gpu=1", "--out", out});
  EXPECT_EQ(other.exit_code, 1);
  EXPECT_NE(other.err.find("started afresh"), std::string::npos) << other.err;
  EXPECT_EQ(other.err.find(", resumed)"), std::string::npos) << other.err;
  EXPECT_EQ(run_cli({"verify", out + ".earlier-1"}).exit_code, 0);
}

TEST_F(AcceptCli, AQuickRunIsNeverResumedIntoAFullOne) {
  const auto spec = write("full.yaml", *spec::template_text("hgx-h100-8x"));
  const auto out = (dir_ / "b").string();
  EXPECT_EQ(run_cli({"accept", "--spec", spec, "--sim", "hgx-h100-8x", "--quick", "--out", out}).exit_code, 3);
  auto full = run_cli({"accept", "--spec", spec, "--sim", "hgx-h100-8x", "--out", out});
  EXPECT_EQ(full.exit_code, 0) << full.out;
  EXPECT_EQ(full.err.find("resumed"), std::string::npos) << "sampled quick stages must be measured again: " << full.err;
  const auto flowed = std::regex_replace(full.out, std::regex("\\s+"), " ");  // text wraps at 120 columns
  EXPECT_NE(flowed.find("28 sets"), std::string::npos) << "every pair measured: " << full.out;
}

TEST_F(AcceptCli, CompareTwoBundles) {
  const auto spec = write("spec.yaml", gates_only("hgx-a100-8x"));
  const auto a = (dir_ / "vendor-a").string();
  const auto b = (dir_ / "vendor-b").string();
  ASSERT_EQ(run_cli({"accept", "--spec", spec, "--sim", "hgx-a100-8x", "--out", a}).exit_code, 0);
  ASSERT_EQ(run_cli({"accept", "--spec", spec, "--sim", "nvlink-4plus4-8x", "--out", b}).exit_code, 1);
  auto text = run_cli({"compare", a, b + "/report.json"});
  EXPECT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("vendor-a"), std::string::npos);
  EXPECT_NE(text.out.find("vendor-b"), std::string::npos);
  EXPECT_NE(text.out.find("*  interconnect"), std::string::npos) << text.out;
  auto md = run_cli({"compare", "--markdown", a, b});
  EXPECT_NE(md.out.find("| **`interconnect` ≠** | **PASS** | **FAIL** |"), std::string::npos) << md.out;
  auto html = run_cli({"compare", "--html", a, b});
  EXPECT_EQ(html.exit_code, 0);
  EXPECT_NE(html.out.find("<tr class=\"differs\"><td><code>interconnect</code>"), std::string::npos) << html.out;
  EXPECT_EQ(html.out.find("http:"), std::string::npos);
  EXPECT_EQ(html.out.find("https:"), std::string::npos);
  EXPECT_EQ(run_cli({"compare", (dir_ / "nothing").string()}).exit_code, 2);
}

TEST_F(AcceptCli, UsageErrors) {
  EXPECT_EQ(run_cli({"accept"}).exit_code, 2);
  const auto spec = write("spec.yaml", gates_only("hgx-h100-8x"));
  EXPECT_EQ(run_cli({"accept", "--spec", spec, "--sim", "no-such-profile"}).exit_code, 2);
  EXPECT_EQ(run_cli({"accept", "--spec", spec, "--fault", "gpu-missing:gpu=1"}).exit_code, 2);
  EXPECT_EQ(run_cli({"accept", "--spec", (dir_ / "none.yaml").string(), "--sim", "hgx-h100-8x"}).exit_code, 2);
}

}  // namespace
}  // namespace gpuvet::accept::testing
