// The verdict's why lines and report.md's findings: a straggler that fails several clauses is
// quoted once; the GPU sets it explains are counted, not quoted; report.json's data is untouched.
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <gtest/gtest.h>

#include "report/html_report.hpp"
#include "report/markdown_report.hpp"
#include "report/why_fold.hpp"

namespace gpuvet::report {
namespace {

core::Finding finding(std::string code, core::Severity severity, std::vector<int> gpus, std::string message) {
  core::Finding f;
  f.code = std::move(code);
  f.severity = severity;
  f.gpus = std::move(gpus);
  f.message = std::move(message);
  return f;
}

const std::string kStraggler = "GPU 3 slows every collective it joins: all_reduce busbw 208 GB/s vs 346 GB/s (60 %)";
std::string busbw(int ranks, const std::string& gpus) {
  return "all_reduce on " + std::to_string(ranks) + " ranks (GPUs " + gpus + "): peak busbw 208 GB/s is 57 % of 367 GB/s";
}

accept::ClauseResult failed(std::string id, std::vector<std::string> parts) {
  accept::ClauseResult c;
  c.id = std::move(id);
  c.status = accept::ClauseStatus::fail;
  c.reason = fmt::format("{}", fmt::join(parts, "; "));
  if (parts.size() > 1) c.reason_parts = std::move(parts);
  return c;
}

// Two clauses failed by the straggler, each quoting it and two of its sets; one clause failed
// by something else (GPU 6's link) that must stay as it was.
accept::AcceptReport straggler_report() {
  accept::AcceptReport r;
  r.verdict = core::Verdict::fail;
  accept::StageRecord s;
  s.id = "collectives";
  s.findings = {finding("straggler_gpu", core::Severity::fail, {3}, kStraggler),
                finding("busbw_below_expected", core::Severity::fail, {}, busbw(2, "0,3")),
                finding("busbw_below_expected", core::Severity::fail, {}, busbw(2, "1,3")),
                finding("busbw_below_expected", core::Severity::fail, {}, busbw(4, "0,1,2,3")),
                finding("busbw_below_expected", core::Severity::fail, {}, busbw(4, "0,1,3,4")),
                finding("busbw_below_expected", core::Severity::fail, {}, busbw(2, "5,6"))};
  s.clauses = {failed("collectives.all_reduce.2", {kStraggler, busbw(2, "0,3"), busbw(2, "1,3"), "and 6 more"}),
               failed("collectives.all_reduce.4", {kStraggler, busbw(4, "0,1,2,3"), busbw(4, "0,1,3,4")}),
               failed("collectives.all_reduce.6", {busbw(2, "5,6")})};
  r.stages.push_back(s);
  accept::StageRecord burnin;
  burnin.id = "burnin";
  accept::ClauseResult not_run;
  not_run.id = "burnin";
  not_run.reason = "stopped by --fail-fast";
  burnin.clauses = {not_run};
  r.stages.push_back(burnin);
  r.verdict = accept::decide(r.stages, r.why);
  return r;
}

TEST(WhyFold, AStragglerIsQuotedOnceAndItsSetsAreCounted) {
  const auto r = straggler_report();
  const auto why = fold_why(r);
  ASSERT_EQ(why.size(), 4u);
  EXPECT_EQ(why[0], "collectives.all_reduce.2 failed: " + kStraggler +
                        "; 2 GPU sets that include GPU 3 fall short too (GPUs 0,3; 1,3); and 6 more");
  EXPECT_EQ(why[1], "collectives.all_reduce.4 failed: GPU 3 again (straggler_gpu, as above); 2 GPU sets that include "
                    "GPU 3 fall short too (GPUs 0,1,2,3; 0,1,3,4)");
  EXPECT_EQ(why[2], r.why[2]);  // GPUs 5,6 do not hold GPU 3
  EXPECT_EQ(why[3], r.why[3]);
  EXPECT_EQ(r.why[1].find("again"), std::string::npos);  // the report's own lines are not changed
}

TEST(HtmlReport, WhyListQuotesTheCulpritOnce) {
  const auto html = render_accept_html(straggler_report(), nullptr);
  const auto start = html.find("<ul class=\"why\">");
  ASSERT_NE(start, std::string::npos);
  const auto why = html.substr(start, html.find("</ul>", start) - start);
  const auto first = why.find("slows every collective it joins");
  ASSERT_NE(first, std::string::npos) << why;
  EXPECT_EQ(why.find("slows every collective it joins", first + 1), std::string::npos) << why;
  EXPECT_NE(why.find("GPU 3 again (straggler_gpu, as above)"), std::string::npos) << why;
}

TEST(WhyFold, AReportWrittenBeforeReasonPartsIsNotFolded) {
  auto r = straggler_report();
  for (auto& c : r.stages.front().clauses) c.reason_parts.clear();  // report.json of an older gpuvet
  EXPECT_EQ(fold_why(r), r.why);
}

TEST(WhyFold, WhyLinesThatAreNotTheClausesAreShownAsTheyAre) {
  auto r = straggler_report();
  r.why[0] = "edited by hand";
  EXPECT_EQ(fold_why(r), r.why);
}

TEST(WhyFold, NoCulpritLeavesTheLinesAsTheyAre) {
  auto r = straggler_report();
  r.stages.front().findings.erase(r.stages.front().findings.begin());  // no straggler_gpu finding
  EXPECT_EQ(fold_why(r), r.why);
}

TEST(MarkdownReport, FoldsFindingsAndWhyOncePerCulprit) {
  const auto md = render_accept_markdown(straggler_report());
  const auto count = [](const std::string& text) {
    size_t quoted = 0;
    for (auto at = text.find(kStraggler); at != std::string::npos; at = text.find(kStraggler, at + 1)) ++quoted;
    return quoted;
  };
  // Once in the why list, once in the findings (the clause table keeps each clause's own reason).
  EXPECT_EQ(count(md.substr(0, md.find("## Spec clauses"))), 1u) << md;
  EXPECT_EQ(count(md.substr(md.find("## Findings"))), 1u) << md;
  EXPECT_NE(md.find("- collectives.all_reduce.4 failed: GPU 3 again (straggler_gpu, as above)"), std::string::npos) << md;
  const auto findings = md.substr(md.find("## Findings"));
  EXPECT_EQ(findings.find(busbw(2, "0,3")), std::string::npos) << findings;
  EXPECT_NE(findings.find("explains 4 more findings on GPU sets that include GPU 3"), std::string::npos) << findings;
  EXPECT_NE(findings.find(busbw(2, "5,6")), std::string::npos) << findings;
}

}  // namespace
}  // namespace gpuvet::report
