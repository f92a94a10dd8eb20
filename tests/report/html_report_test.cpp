// report.html is one self-contained page: the CSP meta, no external resource of any kind,
// verdict and why first, every clause with its result, escaped text, the charts when measured.
#include <gtest/gtest.h>

#include <regex>

#include "backends/sim/simulator.hpp"
#include "report/html_report.hpp"
#include "report_test_data.hpp"

namespace gpuvet::report {
namespace {

std::string html() {
  auto m = sim::simulate_machine("hgx-h100-8x", {});
  EXPECT_TRUE(m.ok());
  return render_accept_html(testing::sample_report(), &*m);
}

TEST(HtmlReport, SelfContainedWithCsp) {
  const auto page = html();
  EXPECT_NE(page.find("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; "
                      "img-src data:\"/>"),
            std::string::npos);
  // No URL, no script, no external stylesheet, font, image or frame.
  EXPECT_FALSE(std::regex_search(page, std::regex("https?:", std::regex::icase)));
  EXPECT_FALSE(std::regex_search(page, std::regex("<script|<link|<iframe|<img|@import|url\\(|src=|href=", std::regex::icase)));
}

// Page 1 (the summary): verdict, machine and the failing clauses; the details start after it.
TEST(HtmlReport, VerdictMachineAndFailingClausesComeFirst) {
  const auto page = html();
  const auto verdict = page.find("id=\"verdict\"");
  const auto machine = page.find("id=\"machine\"");
  const auto failing = page.find("id=\"failing-clauses\"");
  const auto details = page.find("<div class=\"details\">");
  const auto clauses = page.find("id=\"clauses\"");
  ASSERT_NE(verdict, std::string::npos);
  EXPECT_LT(verdict, machine);
  EXPECT_LT(machine, failing);
  EXPECT_LT(failing, details);
  EXPECT_LT(details, clauses);
  const auto summary = page.substr(failing, details - failing);
  EXPECT_NE(summary.find("gpu.same_batch"), std::string::npos);
  EXPECT_NE(summary.find("bandwidth.h2d"), std::string::npos);  // not run: also keeps the verdict from passing
  EXPECT_EQ(summary.find("gpu.count"), std::string::npos);      // passed: only in the full table
  EXPECT_NE(page.find("Verdict: FAIL"), std::string::npos);
  EXPECT_NE(page.find("SIMULATED machine"), std::string::npos);
  EXPECT_NE(page.find(".details{break-before:page"), std::string::npos);
  EXPECT_NE(page.find("@page{size:A4 portrait"), std::string::npos);
}

TEST(HtmlReport, ClausesFindingsAndChartsAreThere) {
  const auto page = html();
  EXPECT_NE(page.find("<td class=\"st pass\">PASS</td>"), std::string::npos);
  EXPECT_NE(page.find("<td class=\"st fail\">FAIL</td>"), std::string::npos);
  EXPECT_NE(page.find("<td class=\"st not_run\">NOT RUN</td>"), std::string::npos);
  EXPECT_NE(page.find("findings: mixed_inventory"), std::string::npos);
  EXPECT_NE(page.find("Next step:</i> Ask the provider to align firmware"), std::string::npos);
  const auto outside = page.find("<h3>Outside the spec</h3>");
  ASSERT_NE(outside, std::string::npos);
  EXPECT_GT(page.find("GPU 2 clocks held back"), outside);
  EXPECT_NE(page.find("<svg class=\"topology\""), std::string::npos);
  EXPECT_NE(page.find("<svg class=\"heatmap\""), std::string::npos);
  EXPECT_NE(page.find("<svg class=\"linechart\""), std::string::npos);
}

TEST(HtmlReport, TextIsEscaped) {
  const auto page = html();
  EXPECT_NE(page.find("sim &lt;host&gt; &amp; co"), std::string::npos);
  EXPECT_NE(page.find("vbios differs: &lt;96.00.74&gt;"), std::string::npos);
  EXPECT_EQ(page.find("<host>"), std::string::npos);
}

TEST(HtmlReport, WithoutMeasurementsSaysWhy) {
  auto r = testing::sample_report();
  r.stages[1].heatmaps.clear();
  r.stages[1].status = accept::StageStatus::not_run;
  r.stages[1].reason = "not built into this binary yet";
  r.stages.pop_back();
  const auto page = render_accept_html(r, nullptr);
  EXPECT_NE(page.find("No measurements in this run: stage bandwidth: not_run (not built into this binary yet)."),
            std::string::npos);
  EXPECT_NE(page.find("No measurements in this run: the stage did not run."), std::string::npos);
  EXPECT_EQ(page.find("<svg class=\"topology\""), std::string::npos);
}

}  // namespace
}  // namespace gpuvet::report
