// read_numa_nodes over the hand-built sysfs trees.
#include "backends/sysfs/numa.hpp"

#include <gtest/gtest.h>

#include "sysfs_fixture.hpp"

namespace gpuvet::sysfs {
namespace {

using testing::fixture_root;

TEST(NumaNodes, TwoSocketsWithTheirCpus) {
  const auto nodes = read_numa_nodes(fixture_root("hgx-2socket"));
  ASSERT_TRUE(nodes) << nodes.reason();
  ASSERT_EQ(nodes->size(), 2u);  // "online", "possible", "has_cpu" are not nodes
  EXPECT_EQ((*nodes)[0].id, 0);
  EXPECT_EQ((*nodes)[0].cpus.value_or("?"), "0-55,112-167");
  EXPECT_EQ((*nodes)[1].id, 1);
  EXPECT_EQ((*nodes)[1].cpus.value_or("?"), "56-111,168-223");
}

TEST(NumaNodes, Workstation) {
  const auto nodes = read_numa_nodes(fixture_root("workstation"));
  ASSERT_TRUE(nodes);
  ASSERT_EQ(nodes->size(), 1u);
  EXPECT_EQ((*nodes)[0].cpus.value_or("?"), "0-23");
}

TEST(NumaNodes, BrokenNodeKeepsItsPlaceWithAnAbsentCpuList) {
  const auto nodes = read_numa_nodes(fixture_root("broken"));
  ASSERT_TRUE(nodes);
  ASSERT_EQ(nodes->size(), 2u);  // nodeX is skipped
  EXPECT_EQ((*nodes)[0].cpus.value_or("?"), "0-7");
  EXPECT_EQ((*nodes)[1].id, 1);
  EXPECT_FALSE((*nodes)[1].cpus);
  EXPECT_NE((*nodes)[1].cpus.reason().find("node1/cpulist not readable"), std::string::npos);
}

TEST(NumaNodes, MissingRootIsAbsent) {
  const auto nodes = read_numa_nodes(testing::missing_root());
  EXPECT_FALSE(nodes);
  EXPECT_NE(nodes.reason().find("/sys/devices/system/node"), std::string::npos);
}

}  // namespace
}  // namespace gpuvet::sysfs
