// report.html of a simulated acceptance run (straggler on GPU 3) in headless Chromium at 1280 px,
// every host unresolvable: the page loads with its verdict, clauses and charts, and the layout probe
// (layout_probe.js) finds nothing wider than its box or the body, every GPU of the topology picture
// inside its viewBox, every chart label inside its picture and every picture inside its column.
// Chromium missing: a failure under CI (CI=true), a skip on a workstation.
#include <gtest/gtest.h>

#include "chromium_accept_page.hpp"
#include "chromium_harness.hpp"

namespace gpuvet::report {
namespace {

namespace chromium = ::gpuvet::testing::chromium;

TEST(HtmlChromium, StragglerReportFitsA1280PixelWindow) {
  GPUVET_REQUIRE_CHROMIUM();
  const auto& page = testing::straggler_accept_page();
  ASSERT_EQ(page.exit_code, 1) << page.output;
  ASSERT_FALSE(page.html.empty()) << "accept wrote no report.html:\n" << page.output;

  const auto run = chromium::dump_dom(chromium::with_layout_probe(page.html), 1280);
  ASSERT_GT(run.output.size(), 2000u) << "chromium produced no DOM (exit " << run.exit_code << "):\n" << run.log;
  const std::string& dom = run.output;
  EXPECT_NE(dom.find("Verdict: FAIL"), std::string::npos);
  EXPECT_NE(dom.find("<b>burnin</b>"), std::string::npos) << "the straggler's burn-in clause is missing";
  EXPECT_NE(dom.find("<svg class=\"topology\""), std::string::npos);
  EXPECT_NE(dom.find("<svg class=\"heatmap\""), std::string::npos);
  EXPECT_NE(dom.find("<svg class=\"linechart\""), std::string::npos);

  const auto layout = chromium::screen_layout(dom);
  ASSERT_TRUE(layout.has_value()) << "the layout probe did not run:\n" << run.log;
  EXPECT_EQ(layout->at("media"), "screen");
  EXPECT_EQ(layout->at("width"), 1280);
  EXPECT_GT(layout->at("elements").get<int>(), 200) << "the probe saw too little of the page";
  EXPECT_GE(layout->at("svgs").get<int>(), 3);
  EXPECT_EQ(layout->at("gpu_boxes"), 8) << "the topology picture should show all 8 GPUs";
  EXPECT_EQ(layout->at("problem_count"), 0) << chromium::problems_text(*layout);
}

}  // namespace
}  // namespace gpuvet::report
