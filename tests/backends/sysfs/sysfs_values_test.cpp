// Table tests of the sysfs attribute parsers: kernel spellings old and new, and garbage.
#include "backends/sysfs/sysfs_values.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "backends/sysfs/infiniband.hpp"

namespace gpuvet::sysfs {
namespace {

TEST(LinkSpeed, MapsEveryKernelSpellingToAGeneration) {
  const std::vector<std::pair<std::string, int>> cases{
      {"2.5 GT/s PCIe", 1}, {"2.5 GT/s", 1},       {"5.0 GT/s PCIe", 2},  {"5 GT/s", 2},
      {"8.0 GT/s PCIe", 3}, {"8 GT/s", 3},         {"16.0 GT/s PCIe", 4}, {"16 GT/s", 4},
      {"32.0 GT/s PCIe", 5}, {"32.0 GT/s PCIe\n", 5}, {"64.0 GT/s PCIe", 6}};
  for (const auto& [text, gen] : cases) {
    const auto parsed = parse_link_speed_gen(text);
    ASSERT_TRUE(parsed) << text << ": " << parsed.reason();
    EXPECT_EQ(*parsed, gen) << text;
  }
}

TEST(LinkSpeed, UnknownAndGarbageAreAbsentWithTheText) {
  for (const std::string text :
       {"Unknown", "Unknown speed", "", "32.0", "12.0 GT/s", "GT/s", "fast"}) {
    const auto parsed = parse_link_speed_gen(text);
    EXPECT_FALSE(parsed) << text;
    EXPECT_NE(parsed.reason().find("'" + text + "'"), std::string::npos) << parsed.reason();
  }
}

TEST(LinkWidth, ParsesLaneCountsAndRejectsTheRest) {
  EXPECT_EQ(parse_link_width("16").value_or(-1), 16);
  EXPECT_EQ(parse_link_width("8\n").value_or(-1), 8);
  EXPECT_EQ(parse_link_width("1").value_or(-1), 1);
  for (const char* text : {"x16", "16x", "", "-4", "99", "x16?!"}) {
    EXPECT_FALSE(parse_link_width(text)) << text;
  }
  const auto down = parse_link_width("0");
  EXPECT_FALSE(down);
  EXPECT_NE(down.reason().find("link down"), std::string::npos);
}

TEST(NumaNode, MinusOneMeansUnknown) {
  EXPECT_EQ(parse_numa_node("0").value_or(-9), 0);
  EXPECT_EQ(parse_numa_node("1\n").value_or(-9), 1);
  const auto unknown = parse_numa_node("-1");
  EXPECT_FALSE(unknown);
  EXPECT_NE(unknown.reason().find("-1"), std::string::npos);
  for (const char* text : {"zero", "", "-2", "0x1"}) EXPECT_FALSE(parse_numa_node(text)) << text;
}

TEST(Cpulist, KeepsListsAndAcceptsEmpty) {
  EXPECT_EQ(parse_cpulist("0-47,96-143\n").value_or("?"), "0-47,96-143");
  EXPECT_EQ(parse_cpulist("").value_or("?"), "");
  EXPECT_FALSE(parse_cpulist("0-7 foo"));
  EXPECT_FALSE(parse_cpulist("ff,ffffffff"));  // a cpumap, not a cpulist
}

TEST(IbRate, TakesTheLeadingGbitPerSecond) {
  EXPECT_DOUBLE_EQ(parse_ib_rate_gbit_s("400 Gb/sec (4X NDR)").value_or(0), 400);
  EXPECT_DOUBLE_EQ(parse_ib_rate_gbit_s("100 Gb/sec (4X EDR)\n").value_or(0), 100);
  EXPECT_DOUBLE_EQ(parse_ib_rate_gbit_s("200 Gb/sec (2X NDR)").value_or(0), 200);
  EXPECT_DOUBLE_EQ(parse_ib_rate_gbit_s("2.5 Gb/sec (1X SDR)").value_or(0), 2.5);
  for (const char* text : {"fast", "400", "0 Gb/sec (4X NDR)", "", "400 GT/s"}) {
    EXPECT_FALSE(parse_ib_rate_gbit_s(text)) << text;
  }
}

TEST(IbState, TakesTheNameAfterTheCode) {
  EXPECT_EQ(parse_ib_state("4: ACTIVE").value_or("?"), "ACTIVE");
  EXPECT_EQ(parse_ib_state("1: DOWN\n").value_or("?"), "DOWN");
  EXPECT_EQ(parse_ib_state("2: INIT").value_or("?"), "INIT");
  EXPECT_EQ(parse_ib_state("5: ACTIVE_DEFER").value_or("?"), "ACTIVE_DEFER");
  for (const char* text : {"ACTIVE?", "ACTIVE", "4:", "x: ACTIVE", "4: active", ""}) {
    EXPECT_FALSE(parse_ib_state(text)) << text;
  }
}

TEST(PciBusId, AcceptsOnlyKernelNames) {
  EXPECT_TRUE(is_pci_bus_id("0000:18:00.0"));
  EXPECT_TRUE(is_pci_bus_id("0000:db:1f.7"));
  for (const char* text : {"00000000:18:00.0", "0000:DB:00.0", "18:00.0", "pci0000:17", "../../etc/x"}) {
    EXPECT_FALSE(is_pci_bus_id(text)) << text;
  }
}

TEST(NaturalOrder, NumbersCompareAsNumbers) {
  EXPECT_TRUE(natural_less("mlx5_2", "mlx5_10"));
  EXPECT_FALSE(natural_less("mlx5_10", "mlx5_2"));
  EXPECT_TRUE(natural_less("mlx5_17", "mlx5_bond_0"));
  EXPECT_TRUE(natural_less("mlx5_1", "mlx5_1a"));
  EXPECT_FALSE(natural_less("mlx5_3", "mlx5_3"));
  EXPECT_TRUE(natural_less("1", "10"));
}

}  // namespace
}  // namespace gpuvet::sysfs
