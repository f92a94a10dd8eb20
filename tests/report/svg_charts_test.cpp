// The SVG helpers produce well-formed XML with one element per GPU, NIC, cell and series.
#include <gtest/gtest.h>
#include <pugixml.hpp>

#include "backends/sim/simulator.hpp"
#include "report/chart_axis.hpp"
#include "report/svg_charts.hpp"
#include "report_test_data.hpp"

namespace gpuvet::report {
namespace {

pugi::xml_document parse(const std::string& svg) {
  pugi::xml_document doc;
  auto ok = doc.load_string(svg.c_str());
  EXPECT_TRUE(ok) << ok.description() << "\n" << svg;
  return doc;
}

size_t count(const pugi::xml_document& doc, const char* xpath) { return doc.select_nodes(xpath).size(); }

TEST(SvgTopology, NvSwitchMachine) {
  auto m = sim::simulate_machine("hgx-h100-8x", {});
  ASSERT_TRUE(m.ok());
  const auto doc = parse(svg_topology(*m));
  EXPECT_EQ(count(doc, "//g[@class='gpu']"), 8u);
  EXPECT_EQ(count(doc, "//g[@class='nic']"), 8u);
  EXPECT_EQ(count(doc, "//g[@class='cpu']"), 2u);
  EXPECT_EQ(count(doc, "//g[@class='pcie-switch']"), 8u);  // each GPU shares a switch with its NIC
  EXPECT_EQ(count(doc, "//g[@class='nvswitch']"), 1u);
  EXPECT_NE(doc.select_node("//g[@class='nvswitch']/text").node().child_value(), std::string());
}

TEST(SvgTopology, FourPlusFourDrawsNvLinkPairs) {
  auto m = sim::simulate_machine("nvlink-4plus4-8x", {});
  ASSERT_TRUE(m.ok());
  const auto doc = parse(svg_topology(*m));
  EXPECT_EQ(count(doc, "//g[@class='nvswitch']"), 0u);
  EXPECT_EQ(count(doc, "//g[@class='nvlink']"), 6u);  // a 4-GPU mesh: 6 pairs
  EXPECT_EQ(std::string(doc.select_node("//g[@class='nvlink']/text").node().child_value()), "NV4");
  EXPECT_EQ(count(doc, "//g[@class='gpu']"), 8u);
}

TEST(SvgTopology, UnknownNumaIsDrawnNotDropped) {
  auto m = sim::simulate_machine("hgx-h100-8x", {});
  ASSERT_TRUE(m.ok());
  auto machine = *m;
  machine.gpus[3].numa_node = core::Reading<int>::absent("not reported");
  const auto doc = parse(svg_topology(machine));
  EXPECT_EQ(count(doc, "//g[@class='gpu']"), 8u);
  EXPECT_EQ(count(doc, "//g[@class='cpu']"), 3u);  // NUMA 0, 1 and "NUMA ?"
}

TEST(SvgHeatmap, CellsColouredAgainstExpected) {
  const auto r = testing::sample_report();
  const auto doc = parse(svg_heatmap(r.stages[1].heatmaps[0]));
  EXPECT_EQ(count(doc, "//rect[@class='cell']"), 4u);
  EXPECT_EQ(count(doc, "//rect[@fill='#93c47d']"), 1u);  // 380 of 390: green
  EXPECT_EQ(count(doc, "//rect[@fill='#e06666']"), 1u);  // 150 of 390: red
  EXPECT_EQ(count(doc, "//rect[@fill='#dddddd']"), 2u);  // n/a diagonal
}

TEST(SvgLineChart, SeriesSpansAndEvents) {
  const auto r = testing::sample_report();
  const auto svg = svg_line_chart(r.stages[2].series[0]);
  const auto doc = parse(svg);
  EXPECT_EQ(count(doc, "//polyline[@class='series']"), 2u);
  EXPECT_EQ(count(doc, "//rect[@class='span']"), 1u);
  EXPECT_EQ(count(doc, "//line[@class='event']"), 1u);
  // The first point sits on the left axis, the last at the right end of the plot.
  const std::string points = doc.select_node("//polyline[@class='series']").node().attribute("points").value();
  EXPECT_EQ(points.substr(0, 5), "56.0,");
  EXPECT_NE(points.find("704.0,"), std::string::npos) << points;
}

// Ticks are round: values from zero in 1-2-5 steps, time in whole minutes.
TEST(SvgLineChart, AxisTicksAreRound) {
  const auto r = testing::sample_report();
  const auto doc = parse(svg_line_chart(r.stages[2].series[0]));  // 35-83 C over 0-1200 s
  std::vector<std::string> y, x;
  for (const auto& n : doc.select_nodes("//text[@class='ytick']")) y.emplace_back(n.node().child_value());
  for (const auto& n : doc.select_nodes("//text[@class='xtick']")) x.emplace_back(n.node().child_value());
  EXPECT_EQ(y, (std::vector<std::string>{"0", "20", "40", "60", "80", "100"}));
  EXPECT_EQ(x, (std::vector<std::string>{"0", "5 min", "10 min", "15 min", "20 min"}));
  EXPECT_EQ(value_axis(0, 791.2).ticks, (std::vector<double>{0, 200, 400, 600, 800}));
  EXPECT_EQ(value_axis(0, 0.37).step, 0.1);
  EXPECT_EQ(time_axis(0, 4 * 3600).step, 3600);
  EXPECT_EQ(time_label(5400, 1800), "90 min");
  EXPECT_EQ(time_label(7200, 3600), "2 h");
}

// The failing GPU's series is drawn thick and last, named in the legend; its heatmap row and
// column are outlined.
TEST(SvgCharts, FailingGpuIsHighlighted) {
  const auto r = testing::sample_report();
  const auto line = parse(svg_line_chart(r.stages[2].series[0], 720, 260, {1}));
  ASSERT_EQ(count(line, "//polyline[@class='series failing']"), 1u);
  EXPECT_EQ(std::string(line.select_node("//polyline[last()]").node().attribute("class").value()), "series failing");
  EXPECT_EQ(std::string(line.select_node("//text[@class='legend failing']").node().child_value()), "GPU1 (failing)");
  EXPECT_EQ(count(parse(svg_line_chart(r.stages[2].series[0])), "//*[contains(@class,'failing')]"), 0u);
  const auto heat = parse(svg_heatmap(r.stages[1].heatmaps[0], {0}));
  EXPECT_EQ(count(heat, "//rect[@class='failing']"), 2u);  // row and column of GPU0
  EXPECT_EQ(count(heat, "//text[@class='failing']"), 2u);
  EXPECT_EQ(gpu_of_label("GPU 3"), 3);
  EXPECT_EQ(gpu_of_label("7"), 7);
  EXPECT_EQ(gpu_of_label("CPU"), std::nullopt);
}

// A legend of many GPUs wraps onto more rows instead of running past the chart.
TEST(SvgLineChart, LegendWrapsWithinTheWidth) {
  accept::SeriesData s{"GEMM", "TFLOP/s", {}, {}, {}, {}};
  for (int g = 0; g < 16; ++g) {
    s.names.push_back("GPU " + std::to_string(g));
    s.points.push_back({{0, 700}, {600, 790}});
  }
  const auto doc = parse(svg_line_chart(s));
  for (const auto& n : doc.select_nodes("//text[starts-with(@class,'legend')]")) {
    const double x = n.node().attribute("x").as_double();
    EXPECT_LE(x + 6.5 * static_cast<double>(std::string(n.node().child_value()).size()), 720.0) << n.node().child_value();
  }
  EXPECT_GT(doc.child("svg").attribute("height").as_int(), 260);
}

TEST(SvgLineChart, EmptySeriesSaysSo) {
  const auto doc = parse(svg_line_chart({"Power", "W", {}, {}, {}, {}}));
  EXPECT_EQ(count(doc, "//polyline"), 0u);
  EXPECT_NE(std::string(doc.select_node("//text[contains(., 'no samples')]").node().child_value()), "");
}

}  // namespace
}  // namespace gpuvet::report
