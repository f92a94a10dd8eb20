// The SVG helpers produce well-formed XML with one element per GPU, NIC, cell and series.
#include <gtest/gtest.h>
#include <pugixml.hpp>

#include "backends/sim/simulator.hpp"
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
  EXPECT_NE(points.find("708.0,"), std::string::npos) << points;
}

TEST(SvgLineChart, EmptySeriesSaysSo) {
  const auto doc = parse(svg_line_chart({"Power", "W", {}, {}, {}, {}}));
  EXPECT_EQ(count(doc, "//polyline"), 0u);
  EXPECT_NE(std::string(doc.select_node("//text[contains(., 'no samples')]").node().child_value()), "");
}

}  // namespace
}  // namespace gpuvet::report
