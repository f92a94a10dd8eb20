// NUMA Affinity cells that list several nodes (Grace systems: GPU memory as NUMA nodes of its own),
// on the real GB200 corpus paste and on written lists.
#include <gtest/gtest.h>

#include "parsers/topo_common.hpp"
#include "parsers/topo_parser.hpp"
#include "topo_test_fixtures.hpp"

namespace gpuvet::parsers {
namespace {

using testing::read_fixture;

TEST(IdList, ReadsSinglesRangesAndRefusesWhatIsNotAList) {
  EXPECT_EQ(parse_id_list("0,3-9,11-17")->size(), 15u);
  EXPECT_EQ(parse_id_list("0,3-9,11-17")->front(), 0);
  EXPECT_EQ(parse_id_list("1,19-25")->at(1), 19);
  EXPECT_EQ(*parse_id_list("7"), std::vector<int>{7});
  EXPECT_FALSE(parse_id_list("N/A"));
  EXPECT_FALSE(parse_id_list(""));
  EXPECT_FALSE(parse_id_list("3-1"));
  EXPECT_FALSE(parse_id_list("0,"));
  EXPECT_FALSE(parse_id_list("0-99999999"));
  EXPECT_FALSE(parse_id_list("-1"));
}

TEST(TopoNumaList, TheFirstNodeOfAListIsTheGpusCpuSideNode) {
  const auto r = parse_topo_matrix(read_fixture("corpus/topo/4x-gb200-nv18-6nic-gpu-numa-id-sglang-11208-truncated.txt"), "t.txt");
  ASSERT_TRUE(r.ok()) << r.error().message;
  const auto& m = r.value();
  ASSERT_EQ(m.gpus.size(), 4u);
  EXPECT_EQ(*m.gpus[0].numa_node, 0);
  EXPECT_EQ(*m.gpus[1].numa_node, 0);
  EXPECT_EQ(*m.gpus[2].numa_node, 1);
  EXPECT_FALSE(m.gpus[3].numa_node.known());  // the paste ends inside row GPU3
  ASSERT_TRUE(m.numa_nodes.known());
  ASSERT_EQ(m.numa_nodes->size(), 2u);
  EXPECT_EQ(*m.numa_nodes->at(1).cpus, "72-143");
  bool noted = false;
  for (const auto& n : m.notes) noted = noted || n.find("GPU0 \"0,3-9,11-17\"") != std::string::npos;
  EXPECT_TRUE(noted);
}

}  // namespace
}  // namespace gpuvet::parsers
