// gpuvet compare --html of three simulated bundles (8x H100, 8x L40S, a --quick H100 without
// burn-in) in headless Chromium at 1280 px: the measured table and the clause table load, and the
// layout probe finds nothing wider than its box (long "why" sentences and five columns wrap).
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "../cli/cli_runner.hpp"
#include "chromium_harness.hpp"

namespace gpuvet::report {
namespace {

namespace chromium = ::gpuvet::testing::chromium;
namespace fs = std::filesystem;
using gpuvet::testing::run_cli;

TEST(CompareChromium, ThreeOffersFitA1280PixelWindow) {
  GPUVET_REQUIRE_CHROMIUM();
  const fs::path dir = fs::temp_directory_path() / ("gpuvet-chromium-compare-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string spec = std::string(GPUVET_SOURCE_DIR) + "/profiles/specs/hgx-h100-8x.yaml";
  for (const auto& [name, args] : std::vector<std::pair<std::string, std::vector<std::string>>>{
           {"vendor-a-h100", {"--sim", "hgx-h100-8x"}}, {"vendor-b-l40s", {"--sim", "l40s-8x"}},
           {"vendor-c-quick", {"--sim", "hgx-h100-8x", "--quick"}}}) {
    std::vector<std::string> cmd = {"accept", "--spec", spec, "--out", (dir / name).string()};
    cmd.insert(cmd.end(), args.begin(), args.end());
    const auto run = run_cli(cmd);
    ASSERT_NE(run.exit_code, 2) << run.err;
  }
  const auto page = run_cli({"compare", "--html", (dir / "vendor-a-h100").string(), (dir / "vendor-b-l40s").string(),
                             (dir / "vendor-c-quick").string()});
  fs::remove_all(dir);
  ASSERT_EQ(page.exit_code, 0) << page.err;

  const auto run = chromium::dump_dom(chromium::with_layout_probe(page.out), 1280);
  ASSERT_GT(run.output.size(), 2000u) << "chromium produced no DOM (exit " << run.exit_code << "):\n" << run.log;
  EXPECT_NE(run.output.find("<table id=\"measured\">"), std::string::npos);
  EXPECT_NE(run.output.find("<table id=\"compare\">"), std::string::npos);
  EXPECT_NE(run.output.find("not measured"), std::string::npos);
  const auto layout = chromium::screen_layout(run.output);
  ASSERT_TRUE(layout.has_value()) << "the layout probe did not run:\n" << run.log;
  EXPECT_EQ(layout->at("width"), 1280);
  EXPECT_EQ(layout->at("problem_count"), 0) << chromium::problems_text(*layout);
}

}  // namespace
}  // namespace gpuvet::report
