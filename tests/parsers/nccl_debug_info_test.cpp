// NCCL_DEBUG=INFO lines in nccl-tests logs: GPUs from their prefixes, the communicator size, and
// what NCCL says about the paths between GPUs, on real corpus excerpts and written lines.
#include <gtest/gtest.h>

#include "parsers/benchmark_machine.hpp"
#include "parsers/nccl_debug_info.hpp"
#include "parsers/nccl_tests_parser.hpp"
#include "topo_test_fixtures.hpp"

namespace gpuvet::parsers {
namespace {

using testing::read_fixture;

core::CollectiveRun run_of(const std::string& fixture) {
  auto r = parse_nccl_tests(read_fixture(fixture), "log.txt");
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
  return r.ok() ? std::move(r).value() : core::CollectiveRun{};
}

bool has_note(const core::Machine& m, std::string_view part) {
  for (const auto& n : m.notes) {
    if (n.find(part) != std::string::npos) return true;
  }
  return false;
}

TEST(NcclDebugInfo, ReadsPrefixesInitLinesAndPaths) {
  NcclDebugFacts f;
  read_nccl_debug_line("node0014:24061:24912 [7] NCCL INFO comm 0x153a7c000dc0 rank 7 nranks 16 cudaDev 7 busId 5e000 - Init COMPLETE", 3, f);
  read_nccl_debug_line("[1] host-b:1:2 [0] NCCL INFO Pattern 4, crossNic 0, nChannels 2, bw 40.0/40.0, type NVL/PIX, sameChannels 1", 9, f);
  read_nccl_debug_line("not an NCCL line at all", 10, f);
  ASSERT_EQ(f.devices.size(), 2u);
  EXPECT_EQ(f.devices.at({"node0014", 7}), "0000:5e:00.0");
  EXPECT_EQ(f.devices.at({"host-b", 0}), "");
  EXPECT_EQ(*f.ranks, 16);
  EXPECT_FALSE(f.nodes);
  EXPECT_EQ(f.nvlink_line, "line 9: Pattern 4, crossNic 0, nChannels 2, bw 40.0/40.0, type NVL/PIX, sameChannels 1");
  EXPECT_TRUE(f.nvswitch_line.empty());
  EXPECT_TRUE(f.pcie_line.empty());
}

TEST(NcclDebugInfo, NvlsMulticastMeansNvswitchAndGivesRanksAndNodes) {
  const auto run = run_of("corpus/nccl/3node-24x-h100-nvls-multicast-nccl-info-excerpt-nccl-1453.txt");
  EXPECT_EQ(*run.ranks, 24);
  EXPECT_EQ(*run.nodes, 3);
  EXPECT_EQ(run.nvswitch_evidence.rfind("line 2: NVLS multicast support is available on dev 0", 0), 0u);
  const auto m = machine_from_benchmarks({run}, {});
  ASSERT_EQ(m.gpus.size(), 1u);
  EXPECT_TRUE(*m.nvswitch_present);
  EXPECT_EQ(*m.hostname, "h100clust-worker-1");
}

TEST(NcclDebugInfo, NvsInTheTopologyDumpIsNvswitch) {
  const auto run = run_of("corpus/nccl/h20-2gpu-nvl-nvs-graph-nccl-info-excerpt-nccl-1189.txt");
  EXPECT_NE(run.nvswitch_evidence.find("+ NVL[370.8] - NVS/0"), std::string::npos) << run.nvswitch_evidence;
  EXPECT_EQ(run.nvlink_evidence.rfind("line 2: Pattern 4", 0), 0u);
  const auto m = machine_from_benchmarks({run}, {});
  EXPECT_EQ(m.gpus.size(), 2u);
  EXPECT_FALSE(m.gpus[0].name.known());  // the host is called H20-GPU-05: a host name is not a model
}

TEST(NcclDebugInfo, PcieRingsAreANoteNotAClass) {
  const auto run = run_of("corpus/nccl/8x-rtx4090-sys-pix-graph-nccl-info-excerpt-nccl-tests-307.txt");
  EXPECT_TRUE(run.nvswitch_evidence.empty());
  EXPECT_EQ(run.pcie_path_evidence.rfind("line 2: Pattern 4", 0), 0u);
  const auto m = machine_from_benchmarks({run}, {});
  EXPECT_EQ(m.gpus.size(), 5u);  // devices 0-4 printed lines in the excerpt
  EXPECT_FALSE(m.nvswitch_present.known());
  EXPECT_TRUE(has_note(m, "NCCL's rings ran over PCIe paths"));
  EXPECT_TRUE(run.rows.empty());
}

TEST(NcclDebugInfo, ALogWithoutTopologyLinesSaysSo) {
  const auto run = run_of("nccl/8x-a100-sxm4-40gb-nvswitch-allreduce-superbench.txt");
  const auto m = machine_from_benchmarks({run}, {});
  EXPECT_TRUE(has_note(m, "carry no NCCL topology lines"));
  EXPECT_FALSE(m.nvswitch_present.known());
}

TEST(NcclDebugInfo, RankLinesWinOverPrefixes) {
  const auto run = run_of("corpus/nccl/8x-l40s-ncu-rank-lines-nccl-info-excerpt-nccl-tests-339.txt");
  EXPECT_FALSE(run.rank_devices.empty());
  EXPECT_TRUE(run.debug_devices.empty());
}

}  // namespace
}  // namespace gpuvet::parsers
