// The checks can fail: the layout probe and the PDF reader on deliberately broken pages in headless
// Chromium. On screen: a table wider than the body, a GPU box outside its picture's viewBox, a
// picture wider than its column, a cut label and a clipped scroll box are each reported, and the
// sound GPU box next to them is not. In print: a scroll box is reported as a printed scrollbar, and
// the PDF's A4 pages and heading outline (with a forced page break) are read back.
#include <gtest/gtest.h>

#include "chromium_harness.hpp"
#include "pdf_reader.hpp"

namespace gpuvet::report {
namespace {

namespace chromium = ::gpuvet::testing::chromium;
namespace pdf = ::gpuvet::testing::pdf;

int reported(const nlohmann::json& layout, const std::string& element) {
  int n = 0;
  for (const auto& p : layout.at("problems")) n += p.at("element").get<std::string>().find(element) != std::string::npos ? 1 : 0;
  return n;
}

TEST(LayoutProbeChromium, ReportsEveryDeliberateOverflowOnScreen) {
  GPUVET_REQUIRE_CHROMIUM();
  const std::string page = R"(<!DOCTYPE html><html><head><meta charset="utf-8"/><title>broken</title><style>
body{font-family:sans-serif;margin:24px auto;max-width:600px} td{white-space:nowrap} .clip{overflow:auto;width:200px}
figure{margin:8px 0}</style></head><body><h1>A deliberately broken page</h1>
<table id="wide"><tr><td>)" + std::string(120, 'W') + R"(</td></tr></table>
<figure><svg class="topology" width="400" height="100" viewBox="0 0 400 100">
<g class="gpu" id="gpu-in"><rect x="10" y="10" width="72" height="40"/></g>
<g class="gpu" id="gpu-out"><rect x="380" y="10" width="72" height="40"/></g></svg></figure>
<figure><svg id="too-wide" width="900" height="50" viewBox="0 0 900 50"><text x="-60" y="20">cut-label</text></svg></figure>
<div class="clip" id="scroller"><pre>)" + std::string(80, 'x') + R"(</pre></div>
<p id="fine">A sound paragraph.</p></body></html>
)";
  const auto run = chromium::dump_dom(chromium::with_layout_probe(page), 1280);
  const auto layout = chromium::screen_layout(run.output);
  ASSERT_TRUE(layout.has_value()) << "the layout probe did not run (exit " << run.exit_code << "):\n" << run.log;
  const std::string all = chromium::problems_text(*layout);
  EXPECT_EQ(layout->at("gpu_boxes"), 2);
  EXPECT_GE(reported(*layout, "table#wide"), 1) << all;
  EXPECT_EQ(reported(*layout, "g#gpu-out.gpu"), 1) << all;
  EXPECT_EQ(reported(*layout, "g#gpu-in.gpu"), 0) << all;
  EXPECT_GE(reported(*layout, "svg#too-wide"), 1) << all;
  EXPECT_EQ(reported(*layout, "text \"cut-label\""), 1) << all;
  EXPECT_GE(reported(*layout, "div#scroller.clip"), 1) << all;
  EXPECT_EQ(reported(*layout, "p#fine"), 0) << all;
}

TEST(LayoutProbeChromium, ReportsAPrintedScrollBoxAndReadsThePdf) {
  GPUVET_REQUIRE_CHROMIUM();
  const std::string page = R"(<!DOCTYPE html><html><head><meta charset="utf-8"/><title>print</title><style>
@page{size:A4 portrait;margin:12mm} body{margin:0;font-family:sans-serif} .clip{overflow:auto;height:60px}
.next{break-before:page}</style></head><body><h1>Print probe</h1><h2>First section</h2>
<div class="clip" id="scroller"><p>one</p><p>two</p><p>three</p><p>four</p></div>
<h2 class="next">Second section (&#8364;)</h2><p id="fine">The end.</p></body></html>
)";
  const auto run = chromium::print_to_pdf(chromium::with_layout_probe(page));
  ASSERT_GT(run.output.size(), 500u) << "chromium printed no PDF (exit " << run.exit_code << "):\n" << run.log;
  pdf::Document doc;
  ASSERT_NO_THROW(doc = pdf::read(run.output));
  ASSERT_EQ(doc.pages.size(), 2u);
  EXPECT_NEAR(doc.pages[1].width_pt, 595.28, 1.5);
  EXPECT_NEAR(doc.pages[1].height_pt, 841.89, 1.5);
  ASSERT_EQ(doc.outline.size(), 3u);
  EXPECT_EQ(doc.outline[0].title, "Print probe");
  EXPECT_EQ(doc.outline[0].page, 0);
  EXPECT_EQ(doc.outline[1].title, "First section");
  EXPECT_EQ(doc.outline[1].depth, 1);
  EXPECT_EQ(doc.outline[1].page, 0);
  EXPECT_EQ(doc.outline[2].title, "Second section (\u20ac)");
  EXPECT_EQ(doc.outline[2].page, 1);
  EXPECT_GT(doc.outline[0].y_pt, doc.outline[1].y_pt) << "headings lower on the page have smaller y";

  const auto layout = chromium::print_layout(doc.title);
  ASSERT_TRUE(layout.has_value()) << "the probe did not run in print layout; PDF title: " << doc.title;
  EXPECT_EQ(layout->at("media"), "print");
  const std::string all = chromium::problems_text(*layout);
  EXPECT_GE(reported(*layout, "div#scroller.clip"), 1) << all;
  EXPECT_EQ(reported(*layout, "p#fine"), 0) << all;
}

}  // namespace
}  // namespace gpuvet::report
