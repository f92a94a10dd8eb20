// The trend report's renderers: HTML well-formed, self-contained, with six inline SVG trend lines
// and the cards that stand out; JSON (gpuvet.trend/1) with unknown values as null; Markdown and
// text with the verdict and what to do.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <pugixml.hpp>

#include "analysis/trend_history.hpp"
#include "analysis/trend_judge.hpp"
#include "report/trend_report.hpp"
#include "trend_report_data.hpp"

namespace gpuvet::report {
namespace {

TEST(TrendHtml, WellFormedSelfContainedWithSixCharts) {
  const testing::TrendFixture fx = testing::trend_fixture();
  const std::string html = render_trend_html(fx.report());
  pugi::xml_document doc;
  const auto parsed = doc.load_string(html.c_str(), pugi::parse_default | pugi::parse_doctype);
  ASSERT_TRUE(parsed) << parsed.description() << " at " << parsed.offset << ": " << html.substr(parsed.offset, 80);
  EXPECT_EQ(doc.select_nodes("//svg[@class='linechart']").size(), 6u);
  // One line per GPU and chart, but none for GPU 2's ECC errors: never read, so nothing to draw.
  EXPECT_EQ(doc.select_nodes("//polyline").size(), 6u * 4u - 1u);
  EXPECT_NE(html.find("Verdict: FAIL"), std::string::npos);
  EXPECT_NE(html.find("hotter_than_peers"), std::string::npos);
  EXPECT_NE(html.find("Xid 79 GPU 1"), std::string::npos);
  EXPECT_NE(html.find("What to do"), std::string::npos);
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_EQ(html.find("http://"), std::string::npos);
  EXPECT_EQ(html.find("https://"), std::string::npos);
  EXPECT_EQ(html.find("src="), std::string::npos);
}

TEST(TrendHtml, EscapesWhatTheDatabaseSays) {
  testing::TrendFixture fx = testing::trend_fixture();
  fx.run.hostname = "<node & \"1\">";
  const std::string html = render_trend_html(fx.report());
  EXPECT_EQ(html.find("<node &"), std::string::npos);
  EXPECT_NE(html.find("&lt;node &amp;"), std::string::npos);
  pugi::xml_document doc;
  EXPECT_TRUE(doc.load_string(html.c_str(), pugi::parse_default | pugi::parse_doctype));
}

TEST(TrendJson, SchemaFieldsAndNullForUnknown) {
  const testing::TrendFixture fx = testing::trend_fixture();
  const auto j = nlohmann::json::parse(render_trend_json(fx.report()));
  EXPECT_EQ(j["schema"], "gpuvet.trend/1");
  EXPECT_EQ(j["verdict"], "fail");
  ASSERT_EQ(j["gpus"].size(), 4u);
  EXPECT_EQ(j["findings"][0]["code"], "hotter_than_peers");
  EXPECT_EQ(j["findings"][0]["gpus"][0], 3);
  EXPECT_EQ(j["period"]["bucket_s"], 900);
  const auto& gpu2 = j["gpus"][2];
  EXPECT_TRUE(gpu2["ecc_corrected"].is_null());  // never read: unknown, not 0
  EXPECT_TRUE(gpu2["points"][0]["ecc_corrected"].is_null());
  EXPECT_EQ(j["gpus"][0]["ecc_corrected"], 0);   // read and flat: 0
  EXPECT_EQ(j["events"][0]["kind"], "xid");
  EXPECT_EQ(j["events"][0]["code"], 79);
  EXPECT_TRUE(j["baseline"].is_null());
}

TEST(TrendMarkdown, VerdictTableAndSteps) {
  const testing::TrendFixture fx = testing::trend_fixture();
  const std::string md = render_trend_markdown(fx.report());
  EXPECT_NE(md.find("**Verdict: FAIL**"), std::string::npos);
  EXPECT_NE(md.find("| GPU | Sampled |"), std::string::npos);
  EXPECT_NE(md.find("1. GPU 3 (hotter_than_peers): "), std::string::npos) << md;
  const std::string text = render_trend_text(fx.report());
  EXPECT_NE(text.find("fail  hotter_than_peers: GPU 3 ran"), std::string::npos) << text;
  EXPECT_NE(text.find("Verdict: FAIL"), std::string::npos);
}

TEST(TrendSeries, PointsAtBucketStartsInSecondsSinceTheStart) {
  const testing::TrendFixture fx = testing::trend_fixture();
  const auto series = trend_series(fx.report());
  ASSERT_EQ(series.size(), 6u);
  EXPECT_EQ(series[1].title, "GPU temperature");
  ASSERT_EQ(series[1].points.size(), 4u);
  EXPECT_DOUBLE_EQ(series[1].points[0].front().first, 0);  // the first 15 min bucket's start
  EXPECT_DOUBLE_EQ(series[1].points[0][1].first, 900);
  ASSERT_EQ(series[1].events.size(), 1u);
  EXPECT_EQ(series[1].events[0].second, "Xid 79 GPU 1");
}

TEST(TrendHtml, TimeAxisEndsWithTheHistory) {
  // 120 h of hourly points and a period that ends 1 s into the next hour (the review's 5-day
  // history): the axis ends at 120 h, not at the next 24 h tick.
  constexpr std::int64_t kStart = 1796083200000;
  core::BurninRunInfo run;
  run.interval_s = 1;
  core::TrendHistory h;
  h.from_unix_ms = kStart;
  h.to_unix_ms = kStart + 120LL * 3600000 + 1000;
  h.bucket_s = 3600;
  h.interval_s = 1;
  core::GpuTrend g;
  for (std::int64_t hour = 0; hour <= 120; ++hour) {
    core::TrendPoint p;
    p.start_unix_ms = kStart + hour * 3600000;
    p.samples = hour == 120 ? 2 : 3600;
    p.temp_c = 66.0;
    g.points.push_back(p);
  }
  h.gpus.push_back(g);
  const core::TrendAssessment assessment;
  TrendReport report{"monitor.db", "7d", run, h, assessment, {}, std::nullopt, core::Verdict::pass, {}, std::nullopt, std::nullopt};
  const std::string html = render_trend_html(report);
  EXPECT_NE(html.find(">120 h</text>"), std::string::npos);
  EXPECT_EQ(html.find(">144 h</text>"), std::string::npos);
  // No alert is said only of what was judged, naming it.
  report.rollup_span = std::make_pair(kStart, kStart + 72LL * 3600000);
  report.raw_span = std::make_pair(kStart + 72LL * 3600000, h.to_unix_ms);
  const std::string markdown = render_trend_markdown(report);
  EXPECT_EQ(markdown.find("throttling alert in the period"), std::string::npos) << markdown;
  EXPECT_NE(markdown.find("alert in what was judged: hourly rollups from 2026-12-01 00:00 UTC to 2026-12-04 00:00 UTC (counter "
                          "growth and throttled time per hour) and raw samples from 2026-12-04 00:00 UTC to 2026-12-06 00:00 UTC"),
            std::string::npos)
      << markdown;
}

}  // namespace
}  // namespace gpuvet::report
