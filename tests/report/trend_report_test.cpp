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

TEST(TrendSeries, PointsAtBucketCentresInSecondsSinceTheStart) {
  const testing::TrendFixture fx = testing::trend_fixture();
  const auto series = trend_series(fx.report());
  ASSERT_EQ(series.size(), 6u);
  EXPECT_EQ(series[1].title, "GPU temperature");
  ASSERT_EQ(series[1].points.size(), 4u);
  EXPECT_DOUBLE_EQ(series[1].points[0].front().first, 450);  // centre of the first 15 min bucket
  ASSERT_EQ(series[1].events.size(), 1u);
  EXPECT_EQ(series[1].events[0].second, "Xid 79 GPU 1");
}

}  // namespace
}  // namespace gpuvet::report
