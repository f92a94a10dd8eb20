// nvidia-smi -q -i N (one GPU section, no GPU number printed) merged with other views of the
// same machine: real captures cut down to the sections -i would print. The GPU is placed by bus
// id or UUID, never by its position in the file.
#include "parsers/gpu_placement.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "parsers/machine_merge.hpp"
#include "parsers/parse_input.hpp"
#include "parsers/smi_query_text_parser.hpp"
#include "parsers/smi_table_parser.hpp"
#include "topo_test_fixtures.hpp"

namespace gpuvet::parsers {
namespace {

using testing::read_fixture;

const char* kA100Query = "smi-q/8x-a100-sxm4-40gb-nvidia-smi-a.txt";
const char* kA100Topo = "topo/8x-a100-sxm4-40gb-nv12-17nic-1numa.txt";
const char* kAdaTable = "corpus/smi-table/8x-rtx6000ada-default-table-thamada.txt";
const char* kAdaQuery = "corpus/smi-q/8x-rtx6000ada-nvidia-smi-q-thamada.txt";

// The header of a -q capture and the GPU sections at `keep` (0-based positions), as
// nvidia-smi -q -i prints them: "Attached GPUs" still counts every GPU.
std::string cut_to_sections(const std::string& text, const std::vector<int>& keep) {
  std::string out;
  int section = -1;
  size_t at = 0;
  while (at < text.size()) {
    size_t end = text.find('\n', at);
    end = end == std::string::npos ? text.size() : end + 1;
    const std::string line = text.substr(at, end - at);
    if (line.rfind("GPU 0000", 0) == 0) ++section;
    if (section < 0 || std::find(keep.begin(), keep.end(), section) != keep.end()) out += line;
    at = end;
  }
  return out;
}

core::Machine query(const std::string& text, const std::string& name = "q.txt") {
  auto r = parse_smi_query_text(text, name);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
  return r.ok() ? r.value() : core::Machine{};
}

core::Machine input(const std::string& fixture, const std::string& name) {
  auto r = parse_input(read_fixture(fixture), name);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
  return r.ok() ? r.value() : core::Machine{};
}

bool has_note(const core::Machine& m, const std::string& text) {
  for (const auto& n : m.notes) {
    if (n.find(text) != std::string::npos) return true;
  }
  return false;
}

TEST(GpuPlacement, OnlyQueryPartsAreNumberedByPosition) {
  EXPECT_TRUE(gpu_indices_are_positions(query(cut_to_sections(read_fixture(kA100Query), {5}))));
  EXPECT_FALSE(gpu_indices_are_positions(input(kA100Topo, "topo.txt")));
  EXPECT_FALSE(gpu_indices_are_positions(input(kAdaTable, "t.txt")));
}

TEST(GpuPlacement, CutCaptureReadsAsOneSectionOfEight) {
  const auto q = query(cut_to_sections(read_fixture(kA100Query), {5}));
  ASSERT_EQ(q.gpus.size(), 1u);
  EXPECT_EQ(q.gpus[0].index, 0);  // the parser alone cannot know better
  EXPECT_EQ(*q.attached_gpus, 8);
  EXPECT_EQ(*q.gpus[0].pci_bus_id, "0000:a5:00.0");
}

TEST(GpuPlacement, TableNumbersTheOneGpuOfQueryDashIByBusId) {
  const auto one = query(cut_to_sections(read_fixture(kAdaQuery), {5}), "q-i5.txt");
  const auto table = input(kAdaTable, "t.txt");
  for (const auto& order : {std::vector<core::Machine>{table, one}, std::vector<core::Machine>{one, table}}) {
    const auto r = merge_machines(order);
    ASSERT_TRUE(r.ok()) << r.error().message;
    ASSERT_EQ(r->gpus.size(), 8u);
    EXPECT_EQ(*r->gpus[5].pci_bus_id, "0000:a1:00.0");
    EXPECT_TRUE(r->gpus[5].uuid.known()) << "the -q section's readings go to GPU 5";
    EXPECT_EQ(*r->gpus[5].name, "NVIDIA RTX 6000 Ada Generation");
    EXPECT_FALSE(r->gpus[0].uuid.known()) << "nothing of GPU 5 lands on GPU 0";
    EXPECT_EQ(*r->gpus[0].pci_bus_id, "0000:01:00.0");
    EXPECT_TRUE(has_note(*r, "q-i5.txt: GPU 0000:a1:00.0 is GPU 5 (matched by bus id as in t.txt")) << r->notes.back();
  }
}

TEST(GpuPlacement, FullQueryNumbersTheOneGpuOfAnotherQueryByBusId) {
  const auto full = query(read_fixture(kA100Query), "full.txt");
  const auto one = query(cut_to_sections(read_fixture(kA100Query), {3}), "q-i3.txt");
  const auto r = merge_machines({full, one});
  ASSERT_TRUE(r.ok()) << r.error().message;  // was: "GPU 0: PCI bus id ... in full.txt but ... in q-i3.txt"
  ASSERT_EQ(r->gpus.size(), 8u);
  EXPECT_EQ(*r->gpus[3].pci_bus_id, *one.gpus[0].pci_bus_id);
  EXPECT_EQ(*r->gpus[0].pci_bus_id, "0000:2f:00.0");
}

TEST(GpuPlacement, TopoWithoutBusIdsLeavesTheGpuOutInsteadOfGivingItToGpu0) {
  const auto one = query(cut_to_sections(read_fixture(kA100Query), {5}), "q-i5.txt");
  const auto r = merge_machines({input(kA100Topo, "topo.txt"), one});
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_EQ(r->gpus.size(), 8u);
  for (const auto& g : r->gpus) EXPECT_FALSE(g.vbios.known()) << "GPU " << g.index;
  EXPECT_FALSE(r->gpus[0].pci_bus_id.known());
  EXPECT_TRUE(r->links.known());
  EXPECT_TRUE(has_note(*r, "q-i5.txt: GPU 0000:a5:00.0 not merged: the file shows 1 of 8 GPU sections"));
}

TEST(GpuPlacement, TrimmedPasteIsNotMergedByPositionEither) {
  const auto three = query(cut_to_sections(read_fixture(kA100Query), {0, 1, 2}), "q-cut.txt");
  const auto r = merge_machines({three, input(kA100Topo, "topo.txt")});
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_EQ(r->gpus.size(), 8u);
  EXPECT_FALSE(r->gpus[0].name.known());
  EXPECT_TRUE(has_note(*r, "q-cut.txt: GPU 0000:62:00.0 not merged: the file shows 3 of 8 GPU sections"));
}

TEST(GpuPlacement, CompleteQueryStillMergesByIndex) {
  std::vector<std::string> notes;
  const std::vector<core::Machine> parts{query(read_fixture(kA100Query)), input(kA100Topo, "topo.txt")};
  const auto placed = place_positional_gpus(parts, notes);
  EXPECT_TRUE(notes.empty());
  ASSERT_EQ(placed[0].gpus.size(), 8u);
  EXPECT_EQ(placed[0].gpus[7].index, 7);
}

TEST(GpuPlacement, AnIdentitySharedByTwoNumberedGpusPlacesNothing) {
  // Two hosts of a multi-node log print the same bus ids: such an id names no single GPU.
  core::Machine ranks;
  ranks.source = "Rank lines of nccl-tests (log.txt)";
  for (int i = 0; i < 2; ++i) {
    core::Gpu g;
    g.index = i;
    g.pci_bus_id = std::string("0000:a5:00.0");
    ranks.gpus.push_back(g);
  }
  std::vector<std::string> notes;
  const auto placed = place_positional_gpus({ranks, query(cut_to_sections(read_fixture(kA100Query), {5}), "q.txt")}, notes);
  EXPECT_TRUE(placed[1].gpus.empty());
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("not merged"), std::string::npos);
}

}  // namespace
}  // namespace gpuvet::parsers
