// nvidia-smi -q -d SECTION[,SECTION]: filtered by design (no Product Name, no Processes); the
// GPUs and what the sections carry are read, and a note says which sections were present.
#include "parsers/smi_query_text_parser.hpp"
#include "parsers/smi_query_xml_parser.hpp"

#include <gtest/gtest.h>

#include "topo_test_fixtures.hpp"

namespace gpuvet::parsers {
namespace {

TEST(SmiQueryFiltered, SectionsAreReadAndNamed) {
  const auto r = parse_smi_query_text(testing::read_fixture("malformed/written-smi-q-d-memory-ecc-2gpu.txt"), "d.txt");
  ASSERT_TRUE(r.ok()) << r.error().message;
  const auto& m = r.value();
  EXPECT_EQ(m.source, "nvidia-smi -q -d (d.txt)");
  ASSERT_EQ(m.gpus.size(), 2u);
  EXPECT_EQ(*m.gpus[1].memory_total_mib, 81920u);
  EXPECT_TRUE(*m.gpus[0].ecc_enabled);
  EXPECT_EQ(*m.gpus[1].pci_bus_id, "0000:9e:00.0");
  EXPECT_EQ(m.gpus[0].name.reason(), "not in this filtered nvidia-smi -q -d output");
  EXPECT_EQ(m.notes.back(),
            "d.txt is a filtered nvidia-smi -q (-d): it shows only FB Memory Usage, BAR1 Memory Usage, Conf Compute "
            "Protected Memory Usage, ECC Mode, ECC Errors; GPU names and every other section are not in it");
}

// A full output cut right after its only GPU's name line: that line may itself be cut, so
// nothing of the GPU can be read (an error, never a machine of no GPUs that would pass).
TEST(SmiQueryFiltered, AFullOutputCutBeforeAnyGpuIsAnError) {
  const std::string cut = "Attached GPUs : 1\nGPU 00000000:18:00.0\n    Product Name : NVIDIA H100 80GB HBM3\n";
  const auto m = parse_smi_query_text(cut, "q.txt");
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.error().message,
            "q.txt: line 3: the output is cut inside its first GPU section: GPU 0 (00000000:18:00.0) is cut before its "
            "Product Name and is left out (truncated; give the complete nvidia-smi -q output): no GPU of it can be read");
}

}  // namespace
}  // namespace gpuvet::parsers

namespace gpuvet::parsers {
namespace {

TEST(SmiQueryWarnings, WarningsAboveTheLogAreEvents) {
  std::string text = testing::read_fixture("malformed/written-smi-q-d-memory-ecc-2gpu.txt");
  text = "WARNING: infoROM is corrupted at gpu 0000:68:00.0\n" + text;
  const auto r = parse_smi_query_text(text, "d.txt");
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_EQ(r.value().events.size(), 1u);
  EXPECT_EQ(r.value().events[0].kind, core::GpuEventKind::inforom_corrupted);
  EXPECT_EQ(*r.value().events[0].pci_bus_id, "0000:68:00.0");
  EXPECT_EQ(r.value().events[0].where, "d.txt: line 1");
}

}  // namespace
}  // namespace gpuvet::parsers

namespace gpuvet::parsers {
namespace {

// nvidia-smi -q -x -d MEMORY, derived in the test from the real 2x RTX A5000 capture: every <gpu>
// keeps its id and only <fb_memory_usage>, as the driver prints a filtered XML.
std::string xml_filtered_to_memory(const std::string& xml) {
  std::string out = xml.substr(0, xml.find("<gpu "));
  for (std::size_t at = xml.find("<gpu "); at != std::string::npos; at = xml.find("<gpu ", at + 1)) {
    const auto open_end = xml.find('>', at) + 1;
    const auto end = xml.find("</gpu>", at);
    const auto fb = xml.find("<fb_memory_usage>", at);
    const auto fb_end = xml.find("</fb_memory_usage>", fb) + std::string("</fb_memory_usage>").size();
    if (fb == std::string::npos || fb > end) return "";
    out += xml.substr(at, open_end - at) + "\n\t\t" + xml.substr(fb, fb_end - fb) + "\n\t</gpu>\n\t";
  }
  return out + "\n</nvidia_smi_log>\n";
}

TEST(SmiQueryFiltered, XmlFilteredToSectionsIsReadAndSaysWhatItShows) {
  const auto xml = xml_filtered_to_memory(testing::read_fixture("smi-q/2x-rtx-a5000-anonymised-nvidia-smi-q-x.xml"));
  ASSERT_FALSE(xml.empty());
  ASSERT_EQ(xml.find("<product_name>"), std::string::npos);
  const auto r = parse_smi_query_xml(xml, "d.xml");
  ASSERT_TRUE(r.ok()) << r.error().message;
  const auto& m = r.value();
  ASSERT_EQ(m.gpus.size(), 2u);
  EXPECT_FALSE(m.gpus[0].name.known());
  EXPECT_EQ(*m.gpus[1].memory_total_mib, 24564u);
  EXPECT_EQ(*m.gpus[1].pci_bus_id, "0000:c1:00.0");
  EXPECT_EQ(m.source, "nvidia-smi -q -x -d (d.xml)");
  ASSERT_FALSE(m.notes.empty());
  EXPECT_NE(m.notes.back().find("shows only <fb_memory_usage>"), std::string::npos) << m.notes.back();
  // A full -q -x whose first <gpu> lost its <product_name> is still an error, not a filter.
  std::string broken = testing::read_fixture("smi-q/2x-rtx-a5000-anonymised-nvidia-smi-q-x.xml");
  const auto name = broken.find("<product_name>");
  broken.erase(name, broken.find("</product_name>", name) + 15 - name);
  EXPECT_FALSE(parse_smi_query_xml(broken, "b.xml").ok());
}

}  // namespace
}  // namespace gpuvet::parsers
