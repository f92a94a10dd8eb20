// The default nvidia-smi table: GPUs, MIG mode, cut names and the warnings nvidia-smi prints
// above it, on the real tables of tests/fixtures/corpus/smi-table and hand-written variants.
#include "parsers/smi_table_parser.hpp"

#include <gtest/gtest.h>

#include "parsers/input_format.hpp"
#include "parsers/machine_merge.hpp"
#include "parsers/smi_query_text_parser.hpp"
#include "topo_test_fixtures.hpp"

namespace gpuvet::parsers {
namespace {

using testing::read_fixture;

TEST(SmiTable, H100TableGivesEveryGpuWithMemoryPowerCapEccAndMig) {
  const auto text = read_fixture("corpus/smi-table/8x-h100-sxm5-80gb-default-table-565-thamada.txt");
  EXPECT_EQ(detect_format(text), InputFormat::smi_table);
  const auto r = parse_smi_table(text, "t.txt");
  ASSERT_TRUE(r.ok()) << r.error().message;
  const auto& m = r.value();
  EXPECT_EQ(*m.driver_version, "565.57.01");
  EXPECT_EQ(*m.cuda_version, "12.7");
  ASSERT_EQ(m.gpus.size(), 8u);
  EXPECT_EQ(*m.gpus[7].name, "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(*m.gpus[7].pci_bus_id, "0000:db:00.0");
  EXPECT_EQ(*m.gpus[0].memory_total_mib, 81559u);
  EXPECT_EQ(*m.gpus[0].power_limit_w, 700);
  EXPECT_TRUE(*m.gpus[0].ecc_enabled);
  EXPECT_FALSE(*m.gpus[0].mig_enabled);
  EXPECT_FALSE(m.gpus[0].uuid.known());
  EXPECT_FALSE(m.attached_gpus.known());
  EXPECT_FALSE(m.links.known());
}

TEST(SmiTable, CutNamesAreKeptWithANoteAndMergeWithTheWholeName) {
  const auto table = parse_smi_table(read_fixture("corpus/smi-table/8x-rtx6000ada-default-table-thamada.txt"), "t.txt");
  ASSERT_TRUE(table.ok());
  EXPECT_EQ(*table.value().gpus[0].name, "NVIDIA RTX 6000 Ada Gene...");
  EXPECT_FALSE(*table.value().gpus[0].ecc_enabled);
  EXPECT_FALSE(table.value().gpus[0].mig_enabled.known());  // N/A: no MIG on this GPU
  EXPECT_NE(table.value().notes.back().find("nvidia-smi cut long names"), std::string::npos);
  const auto q = parse_smi_query_text(read_fixture("corpus/smi-q/8x-rtx6000ada-nvidia-smi-q-thamada.txt"), "q.txt");
  ASSERT_TRUE(q.ok());
  const auto merged = merge_machines({table.value(), q.value()});
  ASSERT_TRUE(merged.ok()) << merged.error().message;
  EXPECT_EQ(*merged.value().gpus[0].name, "NVIDIA RTX 6000 Ada Generation");
}

TEST(SmiTable, MigDevicesFragmentMarksItsGpus) {
  const auto r = parse_smi_table(read_fixture("corpus/smi-table/mig-devices-table-a100-fragment-nvitop-8.txt"), "t.txt");
  ASSERT_TRUE(r.ok()) << r.error().message;
  const auto& m = r.value();
  ASSERT_EQ(m.gpus.size(), 2u);
  EXPECT_EQ(m.gpus[0].index, 1);
  EXPECT_TRUE(*m.gpus[0].mig_enabled);
  EXPECT_TRUE(*m.gpus[1].mig_enabled);
  EXPECT_EQ(m.notes[0], "GPU 1: 3 MIG devices listed (nvidia-smi MIG devices table)");
}

TEST(SmiTable, WarningsAboveTheTableAreEvents) {
  const auto text = read_fixture("malformed/written-smi-table-gpu-lost-inforom.txt");
  EXPECT_EQ(detect_format(text), InputFormat::smi_table);
  const auto r = parse_smi_table(text, "t.txt");
  ASSERT_TRUE(r.ok()) << r.error().message;
  const auto& m = r.value();
  ASSERT_EQ(m.events.size(), 2u);
  EXPECT_EQ(m.events[0].kind, core::GpuEventKind::inforom_corrupted);
  EXPECT_EQ(*m.events[0].pci_bus_id, "0000:41:00.0");
  EXPECT_EQ(m.events[1].kind, core::GpuEventKind::device_handle_lost);
  EXPECT_EQ(*m.events[1].pci_bus_id, "0000:83:00.0");
  EXPECT_EQ(m.gpus.size(), 1u);
}

// Issue 20: `head -N` of the 8x RTX 6000 Ada table for every N from GPU 0's first line (8) to the
// line before "| Processes:" (42) is read as cut, whether it stops inside a GPU block or at a border.
TEST(SmiTable, TableWithoutItsEndIsReadAsCut) {
  const auto text = read_fixture("corpus/smi-table/8x-rtx6000ada-default-table-thamada.txt");
  std::size_t at = 0;
  for (int lines = 1; (at = text.find('\n', at)) != std::string::npos; ++lines) {
    ++at;
    if (lines < 8) continue;
    SCOPED_TRACE("head -" + std::to_string(lines));
    const auto r = parse_smi_table(text.substr(0, at), "t.txt");
    ASSERT_TRUE(r.ok()) << r.error().message;
    bool cut = false;
    for (const auto& note : r.value().notes) {
      cut = cut || note.find("the table looks cut") != std::string::npos || note.find("the table is cut short") != std::string::npos;
    }
    EXPECT_EQ(cut, lines < 42);
  }
  const auto border = parse_smi_table(text.substr(0, text.find("|   1  NVIDIA")), "t.txt");  // head -11
  ASSERT_TRUE(border.ok());
  ASSERT_EQ(border.value().gpus.size(), 1u);
  EXPECT_EQ(border.value().notes.back(),
            "t.txt: line 11: the input ends after the block of GPU 0 without the rest of the table (the Processes box "
            "nvidia-smi prints after its last GPU): the table looks cut, and GPUs after GPU 0 would not be shown");
}

TEST(SmiTable, OnlyAWarningIsStillRead) {
  const auto r = parse_smi_table("Unable to determine the device handle for GPU0000:83:00.0: Unknown Error\n", "t.txt");
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_EQ(r.value().events.size(), 1u);
  EXPECT_FALSE(parse_smi_table("| nothing here |\n", "t.txt").ok());
}

}  // namespace
}  // namespace gpuvet::parsers
