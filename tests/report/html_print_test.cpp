// report.html of simulated acceptance runs (a straggler on GPU 3; eight faults at once, 13 failing
// clauses) printed by headless Chromium
// (--print-to-pdf, no header or footer, heading outline): A4 portrait pages, page 1 holds the
// verdict, "Machine" and "Failing clauses" and nothing of page 1 spills over (the details start at
// the top of page 2), and the layout probe run in print layout finds nothing clipped or scrollable.
// Chromium missing: a failure under CI (CI=true), a skip on a workstation.
#include <gtest/gtest.h>

#include <cmath>

#include "chromium_accept_page.hpp"
#include "chromium_harness.hpp"
#include "pdf_reader.hpp"

namespace gpuvet::report {
namespace {

namespace chromium = ::gpuvet::testing::chromium;
namespace pdf = ::gpuvet::testing::pdf;

constexpr double kA4WidthPt = 595.28;   // 210 mm
constexpr double kA4HeightPt = 841.89;  // 297 mm
constexpr double kMarginPt = 12 / 25.4 * 72;  // the report's @page margin, 12 mm

const pdf::OutlineEntry* heading(const pdf::Document& doc, const std::string& title) {
  for (const auto& e : doc.outline) {
    if (e.title == title) return &e;
  }
  return nullptr;
}

std::string outline_text(const pdf::Document& doc) {
  std::string out;
  for (const auto& e : doc.outline) {
    out += std::string(2 * static_cast<std::size_t>(e.depth) + 2, ' ') + e.title + "  (page " + std::to_string(e.page + 1) +
           ", y " + std::to_string(static_cast<int>(e.y_pt)) + " pt)\n";
  }
  return out;
}

// Prints `page` and checks the pages, page 1, the outline and the print layout; `gpus`: the GPUs
// the topology picture should show, `clause`: a failing clause page 1 must list.
void check_a4_print(const testing::AcceptPage& page, int gpus, const std::string& clause) {
  ASSERT_FALSE(page.html.empty()) << "accept wrote no report.html:\n" << page.output;
  // The verdict is no heading, so the outline cannot show it: it sits between the title and
  // "Machine" in the page, so when both are on page 1 the verdict is too.
  const auto title_at = page.html.find("<h1>gpuvet acceptance report</h1>");
  const auto verdict_at = page.html.find("id=\"verdict\">Verdict: FAIL");
  const auto machine_at = page.html.find("<h2 id=\"machine\">Machine</h2>");
  ASSERT_NE(verdict_at, std::string::npos);
  ASSERT_TRUE(title_at < verdict_at && verdict_at < machine_at) << "the verdict is not between the title and Machine";
  const auto failing_table = page.html.find("id=\"failing-clauses\"");
  ASSERT_NE(failing_table, std::string::npos) << "a failing run must list its failing clauses";
  EXPECT_NE(page.html.find("<b>" + clause + "</b>", failing_table), std::string::npos) << clause << " is not listed";

  const auto run = chromium::print_to_pdf(chromium::with_layout_probe(page.html));
  ASSERT_GT(run.output.size(), 1000u) << "chromium printed no PDF (exit " << run.exit_code << "):\n" << run.log;
  pdf::Document doc;
  ASSERT_NO_THROW(doc = pdf::read(run.output));

  ASSERT_GE(doc.pages.size(), 2u);
  EXPECT_LE(doc.pages.size(), 14u) << "a report of this size printed on " << doc.pages.size() << " pages";
  for (std::size_t i = 0; i < doc.pages.size(); ++i) {
    EXPECT_NEAR(doc.pages[i].width_pt, kA4WidthPt, 1.5) << "page " << i + 1 << " is not A4 portrait";
    EXPECT_NEAR(doc.pages[i].height_pt, kA4HeightPt, 1.5) << "page " << i + 1 << " is not A4 portrait";
  }
  const auto* title = heading(doc, "gpuvet acceptance report");
  const auto* machine = heading(doc, "Machine");
  const auto* failing = heading(doc, "Failing clauses");
  const auto* why = heading(doc, "Why");
  ASSERT_TRUE(title && machine && failing && why) << "outline:\n" << outline_text(doc);
  EXPECT_EQ(title->page, 0) << outline_text(doc);
  EXPECT_EQ(machine->page, 0) << outline_text(doc);
  EXPECT_EQ(failing->page, 0) << outline_text(doc);
  // The details break to a new page: "Why" on page 2 means the summary ended on page 1, and at the
  // top of page 2 means nothing of it was pushed over.
  EXPECT_EQ(why->page, 1) << "the summary does not fit page 1:\n" << outline_text(doc);
  EXPECT_GT(why->y_pt, kA4HeightPt - kMarginPt - 60) << "page 2 does not start with the details:\n" << outline_text(doc);
  for (const char* section : {"Topology", "Bandwidth", "Burn-in", "Findings"}) {
    const auto* h = heading(doc, section);
    ASSERT_NE(h, nullptr) << section << " missing from the outline:\n" << outline_text(doc);
    EXPECT_GE(h->page, 1) << section;
  }

  const auto layout = chromium::print_layout(doc.title);
  ASSERT_TRUE(layout.has_value()) << "the probe did not run in print layout; PDF title: " << doc.title;
  EXPECT_EQ(layout->at("media"), "print");
  // A4 less the two 12 mm margins is 186 mm = 703 CSS px: the print CSS's @page took effect.
  EXPECT_NEAR(layout->at("body_width").get<double>(), 186 / 25.4 * 96, 2.0);
  EXPECT_EQ(layout->at("gpu_boxes"), gpus);
  EXPECT_EQ(layout->at("problem_count"), 0) << chromium::problems_text(*layout);
}

TEST(HtmlPrint, A4PageOneHoldsVerdictMachineAndFailingClauses) {
  GPUVET_REQUIRE_CHROMIUM();
  check_a4_print(testing::straggler_accept_page(), 8, "burnin");
}

TEST(HtmlPrint, ThirteenFailingClausesStillFitPageOne) {
  GPUVET_REQUIRE_CHROMIUM();
  const auto& page = testing::many_faults_accept_page();
  ASSERT_EQ(page.exit_code, 1) << page.output;
  std::size_t failing = 0;
  const auto table = page.html.find("id=\"failing-clauses\"");
  ASSERT_NE(table, std::string::npos);
  const auto table_end = page.html.find("</table>", table);
  for (auto at = page.html.find("<tr><td>", table); at < table_end; at = page.html.find("<tr><td>", at + 1)) ++failing;
  EXPECT_GE(failing, 12u) << "the faults no longer break as many clauses; this test wants a long list";
  check_a4_print(page, 7, "gpu.count");
}

}  // namespace
}  // namespace gpuvet::report
