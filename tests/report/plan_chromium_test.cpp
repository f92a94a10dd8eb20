// gpuvet plan --html in headless Chromium at 1280 px: the offers table and the step-time chart of
// the example offers (docs/examples/plan-offers.yaml) plus an offer with a long name and a simulator
// profile; the layout probe (layout_probe.js) finds nothing wider than its box or the body and every
// label inside its chart. Chromium missing: a failure under CI (CI=true), a skip on a workstation.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "../cli/cli_runner.hpp"
#include "chromium_harness.hpp"

namespace gpuvet::report {
namespace {

namespace chromium = ::gpuvet::testing::chromium;
namespace fs = std::filesystem;

TEST(PlanChromium, OffersPageFitsA1280PixelWindow) {
  GPUVET_REQUIRE_CHROMIUM();
  const fs::path offers = fs::temp_directory_path() / ("gpuvet-plan-offers-" + std::to_string(::getpid()) + ".yaml");
  {
    std::ifstream example(std::string(GPUVET_SOURCE_DIR) + "/docs/examples/plan-offers.yaml");
    std::ostringstream text;
    text << example.rdbuf();
    ASSERT_FALSE(text.str().empty()) << "docs/examples/plan-offers.yaml missing";
    std::ofstream(offers) << text.str()
                          << "  - name: D-reserved-8x-H100-SXM-us-east-1-one-year-term-with-support\n"
                             "    gpu: h100-sxm5-80gb\n    gpus_per_node: 8\n    nodes: 2\n    interconnect: nvswitch\n"
                             "    nics: {count: 8, gbit_s: 400}\n    price_per_gpu_hour: 2.10\n";
  }
  const auto plan = testing::run_cli({"plan", "--model", "llama-3-70b", "--workload", "train", "--offers", offers.string(),
                                      "--offer", "nvlink-4plus4-8x", "--html"});
  fs::remove(offers);
  ASSERT_NE(plan.out.find("</html>"), std::string::npos) << "plan printed no page (exit " << plan.exit_code << "):\n" << plan.err;

  const auto run = chromium::dump_dom(chromium::with_layout_probe(plan.out), 1280);
  ASSERT_GT(run.output.size(), 2000u) << "chromium produced no DOM (exit " << run.exit_code << "):\n" << run.log;
  EXPECT_NE(run.output.find("D-reserved-8x-H100-SXM-us-east-1"), std::string::npos);
  EXPECT_NE(run.output.find("aria-label=\"step time per offer\""), std::string::npos);
  const auto layout = chromium::screen_layout(run.output);
  ASSERT_TRUE(layout.has_value()) << "the layout probe did not run:\n" << run.log;
  EXPECT_EQ(layout->at("width"), 1280);
  EXPECT_GE(layout->at("svgs").get<int>(), 1);
  EXPECT_GT(layout->at("elements").get<int>(), 50);
  EXPECT_EQ(layout->at("problem_count"), 0) << chromium::problems_text(*layout);
}

}  // namespace
}  // namespace gpuvet::report
