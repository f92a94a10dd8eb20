// topo -m pastes that are not clean (cut short, escape residue, glued cells), topo -mp (PCIe
// only) and topo -p2p capability matrices, on real corpus files and written variants.
#include <gtest/gtest.h>

#include "parsers/input_format.hpp"
#include "parsers/parse_input.hpp"
#include "parsers/topo_p2p_parser.hpp"
#include "parsers/topo_parser.hpp"
#include "topo_test_fixtures.hpp"

namespace gpuvet::parsers {
namespace {

using testing::read_fixture;

TEST(TopoCut, RowsBeforeTheCutAreKeptAndTheLastRowIsReadFromTheOthers) {
  const auto r = parse_topo_matrix(read_fixture("corpus/topo/4x-gb200-nv18-6nic-gpu-numa-id-sglang-11208-truncated.txt"), "t.txt");
  ASSERT_TRUE(r.ok()) << r.error().message;
  const auto& m = r.value();
  ASSERT_EQ(m.gpus.size(), 4u);
  ASSERT_TRUE(m.links.known());
  EXPECT_EQ(core::to_string(m.links->at(3, 0)), "NV18");
  EXPECT_EQ(*m.gpus[2].cpu_affinity, "72-143");
  EXPECT_FALSE(m.gpus[3].cpu_affinity.known());
  EXPECT_FALSE(m.nics->at(0).gpu_proximity.known());
  EXPECT_EQ(m.notes[0], "t.txt: line 6: the paste ends inside row GPU3 (4 of its 10 link cells kept)");
}

// Issue 20: the GPUs without a complete row are named by the header but not seen; the note says
// the matrix is truncated (the inventory rule's word for an input that does not show every GPU).
TEST(TopoCut, GpusWithoutACompleteRowAreNotSeen) {
  const auto text = read_fixture("topo/3x-rtx-a6000-nv4-bridge-pair-plus-node-ansi.txt");
  const auto r = parse_topo_matrix(text.substr(0, text.find("GPU1\tNV4")), "t.txt");
  ASSERT_TRUE(r.ok()) << r.error().message;
  const auto& m = r.value();
  ASSERT_EQ(m.gpus.size(), 3u);
  EXPECT_FALSE(m.gpus[0].unseen);
  EXPECT_TRUE(m.gpus[1].unseen);
  EXPECT_TRUE(m.gpus[2].unseen);
  EXPECT_EQ(*m.attached_gpus, 3);
  EXPECT_EQ(m.notes.back(),
            "t.txt: nvidia-smi topo -m is truncated: 1 of 3 GPU rows complete (GPU1..GPU2 without a complete row); links "
            "of GPU1-GPU2 unknown, so the interconnect cannot be classified from it");
  // Only the last row missing: every pair is known, the last GPU is still not seen.
  const auto last = parse_topo_matrix(text.substr(0, text.find("GPU2\tNODE")), "t.txt");
  ASSERT_TRUE(last.ok()) << last.error().message;
  EXPECT_TRUE(last.value().links.known());
  EXPECT_TRUE(last.value().gpus[2].unseen);
  EXPECT_FALSE(last.value().gpus[1].unseen);
  EXPECT_NE(last.value().notes.back().find("is truncated: 2 of 3 GPU rows complete (GPU2 without a complete row)"),
            std::string::npos)
      << last.value().notes.back();
  // The whole matrix: every GPU seen.
  const auto whole = parse_topo_matrix(text, "t.txt");
  ASSERT_TRUE(whole.ok());
  for (const auto& g : whole.value().gpus) EXPECT_FALSE(g.unseen);
}

TEST(TopoCut, PairsNotShownAreNvswitchOnlyWhenTheRowsShownProveAnNvswitch) {
  const auto dgx = parse_topo_matrix(read_fixture("corpus/topo/8x-a100-dgx-nv12-10nic-4numa-dcgm-149-truncated.txt"), "t.txt");
  ASSERT_TRUE(dgx.ok()) << dgx.error().message;
  ASSERT_TRUE(dgx.value().links.known());
  EXPECT_EQ(core::to_string(dgx.value().links->at(6, 7)), "NV12");  // 12 x 7 = 84 NVLinks: an NVSwitch
  EXPECT_NE(dgx.value().notes.back().find("meet in an NVSwitch"), std::string::npos);
  const auto v100 = parse_topo_matrix(read_fixture("corpus/topo/16x-v100-dgx2-nv6-nvswitch-10nic-nccl-tests-78-truncated.txt"), "t.txt");
  ASSERT_TRUE(v100.ok()) << v100.error().message;
  EXPECT_EQ(v100.value().gpus.size(), 16u);
  EXPECT_TRUE(v100.value().links.known());
  EXPECT_FALSE(v100.value().gpus[4].cpu_affinity.known());  // "0-23,4": cut by the end of the paste
  // PCIe rows cut short prove nothing about the pairs not shown.
  const std::string pcie = "\tGPU0\tGPU1\tGPU2\tCPU Affinity\nGPU0\t X \tPHB\tSYS\t0-7\nGPU1\tPHB\t X \tSYS\t0-7\nGPU2\tSYS";
  const auto cut = parse_topo_matrix(pcie, "t.txt");
  ASSERT_TRUE(cut.ok()) << cut.error().message;
  EXPECT_TRUE(cut.value().links.known());  // rows 0 and 1 cover every pair
  const auto early = parse_topo_matrix("\tGPU0\tGPU1\tGPU2\tCPU Affinity\nGPU0\t X \tPHB\tSYS\t0-7\nGPU1\tPHB", "t.txt");
  ASSERT_TRUE(early.ok()) << early.error().message;
  EXPECT_FALSE(early.value().links.known());
  EXPECT_NE(early.value().links.reason().find("GPU1-GPU2"), std::string::npos);
}

TEST(TopoResidue, EscapeResidueAndGluedCellsAreRead) {
  const std::string text =
      "[4mGPU0\tGPU1\tGPU2\tCPU Affinity\tNUMA Affinity[0m\n"
      "GPU0\t X \tNODENODE\t0-23\t0\n"
      "GPU1\tNODE\t X \tSYS0-23\t0\n"
      "GPU2\tNODE\tSYS\t X \t24-47\t1\n";
  EXPECT_EQ(detect_format(text), InputFormat::topo_matrix);
  const auto r = parse_topo_matrix(text, "t.txt");
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(core::to_string(r.value().links->at(0, 2)), "NODE");
  EXPECT_EQ(*r.value().gpus[1].cpu_affinity, "0-23");
  EXPECT_EQ(r.value().notes.back(), "t.txt: some cells had no space between them and were split");
}

TEST(TopoMp, PcieOnlyViewSaysItCannotShowNvlink) {
  const auto text = read_fixture("malformed/written-topo-mp-4gpu.txt");
  const auto r = parse_topo_matrix(text, "t.txt");
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_FALSE(r.value().links.known());
  EXPECT_EQ(r.value().links.reason(), "nvidia-smi topo -mp shows PCIe paths only: it cannot show NVLink");
  EXPECT_EQ(r.value().source, "nvidia-smi topo -mp (t.txt)");
  EXPECT_TRUE(r.value().numa_nodes.known());
}

TEST(TopoP2p, CapabilityMatrixIsItsOwnFormat) {
  const auto text = read_fixture("corpus/topo/2x-rtx5090-topo-p2p-rw-gns-club3090-1229.txt");
  EXPECT_EQ(detect_format(text), InputFormat::topo_p2p);
  const auto r = parse_topo_p2p(text, "t.txt");
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r.value().machine.gpus.size(), 2u);
  EXPECT_FALSE(r.value().machine.links.known());
  ASSERT_TRUE(r.value().access.p2p_access.known());
  EXPECT_FALSE((*r.value().access.p2p_access)[0][1]);
  EXPECT_EQ(r.value().access.notes[0], "P2P not available: GPU0-GPU1: GNS (GPU not supported)");
  const auto file = parse_file(text, "t.txt");
  ASSERT_TRUE(file.ok());
  EXPECT_TRUE(file.value().machine.has_value());
  EXPECT_TRUE(file.value().bandwidth.has_value());
  const std::string ok = "nvidia-smi topo -p2p n\n\tGPU0\tGPU1\tGPU2\nGPU0\tX\tOK\tOK\nGPU1\tOK\tX\tCNS\nGPU2\tOK\tCNS\tX\n";
  const auto three = parse_topo_p2p(ok, "t.txt");
  ASSERT_TRUE(three.ok()) << three.error().message;
  EXPECT_TRUE((*three.value().access.p2p_access)[0][2]);
  EXPECT_NE(three.value().machine.notes[0].find("P2P NVLink"), std::string::npos);
  EXPECT_FALSE(parse_topo_p2p("\tGPU0\tGPU1\nGPU0\tX\tYES\nGPU1\tYES\tX\n", "t.txt").ok());
}

}  // namespace
}  // namespace gpuvet::parsers
