// Loads a trend report in headless Chromium (Debian package `chromium`) at 1280 px with every host
// unresolvable: the page renders (verdict, stand-outs, six charts) and the layout probe
// (layout_probe.js, through chromium_harness) finds nothing wider than its box or the window, and
// every chart label inside its picture. Chromium missing: a failure under CI (CI=true), a skip on a
// workstation.
#include <gtest/gtest.h>

#include "chromium_harness.hpp"
#include "report/trend_report.hpp"
#include "trend_report_data.hpp"

namespace gpuvet::report {
namespace {

namespace chromium = ::gpuvet::testing::chromium;

TEST(TrendChromium, RendersAndFitsIn1280Pixels) {
  GPUVET_REQUIRE_CHROMIUM();
  // The widest page: 8 GPUs and a baseline (the per-GPU table's extra columns).
  const std::string html = render_trend_html(testing::trend_fixture(8, true).report());
  const auto run = chromium::dump_dom(chromium::with_layout_probe(html), 1280);
  const std::string& dom = run.output;
  ASSERT_GT(dom.size(), 2000u) << "chromium produced no DOM (exit " << run.exit_code << "):\n" << run.log;
  EXPECT_NE(dom.find("Verdict: FAIL"), std::string::npos);
  EXPECT_NE(dom.find("hotter_than_peers"), std::string::npos);
  std::size_t charts = 0;
  for (std::size_t at = dom.find("<svg class=\"linechart\""); at != std::string::npos; at = dom.find("<svg class=\"linechart\"", at + 1)) ++charts;
  EXPECT_EQ(charts, 6u);
  const auto layout = chromium::screen_layout(dom);
  ASSERT_TRUE(layout.has_value()) << "the layout probe did not run:\n" << run.log;
  EXPECT_EQ(layout->at("width"), 1280);
  EXPECT_EQ(layout->at("svgs"), 6);
  EXPECT_EQ(layout->at("problem_count"), 0) << chromium::problems_text(*layout);
}

}  // namespace
}  // namespace gpuvet::report
