// nvidia-smi -q pasted more than once in one file: repeated GPU sections fold with a note when
// they agree and are refused when they differ; more GPUs than "Attached GPUs" is refused.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "parsers/parse_input.hpp"
#include "parsers/smi_query_text_parser.hpp"
#include "parsers/smi_query_xml_parser.hpp"
#include "topo_test_fixtures.hpp"

namespace gpuvet::parsers {
namespace {

using testing::read_fixture;

const char* const kA100 = "smi-q/4x-a100-sxm4-80gb-nvidia-smi-q.txt";

std::string repeated(const std::string& text, int copies) {
  std::string out;
  for (int i = 0; i < copies; ++i) out += text;
  return out;
}

bool has_note(const core::Machine& m, const std::string& part) {
  for (const auto& n : m.notes) {
    if (n.find(part) != std::string::npos) return true;
  }
  return false;
}

TEST(SmiQueryRepeats, PastedTwiceFoldsToOneMachineWithANote) {
  const auto once = read_fixture(kA100);
  const auto single = parse_smi_query_text(once, "q.txt");
  ASSERT_TRUE(single.ok()) << single.error().message;
  const auto twice = parse_smi_query_text(repeated(once, 2), "q.txt");
  ASSERT_TRUE(twice.ok()) << twice.error().message;
  ASSERT_EQ(twice->gpus.size(), 4u);
  EXPECT_EQ(*twice->attached_gpus, 4);
  for (size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(twice->gpus[i].index, static_cast<int>(i));
    EXPECT_EQ(twice->gpus[i].pci_bus_id, single->gpus[i].pci_bus_id);
  }
  const int lines = static_cast<int>(std::count(once.begin(), once.end(), '\n'));
  EXPECT_EQ(twice->notes.back(), "q.txt: 4 GPU section(s) from line " + std::to_string(lines + 8) +
                                     " on repeat GPUs listed earlier (same bus id, same content): folded into 4 GPU(s); "
                                     "the output was pasted more than once");
  EXPECT_FALSE(has_note(*twice, "attached GPUs is"));
}

TEST(SmiQueryRepeats, ManyCopiesStillOneMachine) {
  const auto many = parse_smi_query_text(repeated(read_fixture(kA100), 60), "q.txt");
  ASSERT_TRUE(many.ok()) << many.error().message;
  EXPECT_EQ(many->gpus.size(), 4u);
  EXPECT_TRUE(has_note(*many, "236 GPU section(s) from line"));
}

TEST(SmiQueryRepeats, ARunLaterWithOtherTemperaturesStillFolds) {
  const auto once = read_fixture(kA100);
  auto later = once;
  const auto at = later.find("GPU Current Temp                  : 25 C");
  ASSERT_NE(at, std::string::npos);
  later.replace(at, 40, "GPU Current Temp                  : 61 C");
  const auto r = parse_smi_query_text(once + later, "q.txt");
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->gpus.size(), 4u);
}

TEST(SmiQueryRepeats, SameBusIdWithOtherContentIsRefused) {
  const auto once = read_fixture(kA100);
  auto other = once;
  const auto at = other.find("1320222043305");
  ASSERT_NE(at, std::string::npos);
  other.replace(at, 13, "9999999999999");
  const int lines = static_cast<int>(std::count(once.begin(), once.end(), '\n'));
  const auto r = parse_smi_query_text(once + other, "q.txt");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, core::ErrorKind::bad_input);
  EXPECT_EQ(r.error().message, "q.txt: line " + std::to_string(lines + 8) +
                                   ": the GPU with bus id 0000:68:00.0 is listed again (first on line 8) with a different "
                                   "serial: \"1320222043305\" on line 8, \"9999999999999\" on line " +
                                   std::to_string(lines + 8) + "; give one nvidia-smi -q output per file");
}

TEST(SmiQueryRepeats, TwoMachinesInOneFileAreRefused) {
  const auto r = parse_smi_query_text(read_fixture(kA100) + read_fixture("smi-q/2x-h100-nvl-nvidia-smi-q.txt"), "q.txt");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, core::ErrorKind::bad_input);
  EXPECT_EQ(r.error().message,
            "q.txt: line 7: Attached GPUs is 4 but the file has 6 different GPU sections (bus ids): outputs of several "
            "machines in one file? Give one nvidia-smi -q output per file");
}

TEST(SmiQueryRepeats, XmlWithAGpuElementRepeatedFolds) {
  auto xml = read_fixture("smi-q/2x-rtx-a5000-anonymised-nvidia-smi-q-x.xml");
  const auto begin = xml.find("\t<gpu id=\"00000000:81:00.0\">");
  const auto end = xml.find("</gpu>", begin) + 7;
  ASSERT_NE(begin, std::string::npos);
  xml.insert(end, xml.substr(begin, end - begin));
  const auto r = parse_smi_query_xml(xml, "q.xml");
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->gpus.size(), 2u);
  EXPECT_TRUE(has_note(*r, "q.xml: 1 GPU section(s) from line 867 on repeat GPUs"));
}

// The whole XML document twice: two <nvidia_smi_log> elements, read as one output pasted twice.
TEST(SmiQueryRepeats, XmlDocumentPastedTwiceFolds) {
  const auto xml = read_fixture("smi-q/2x-rtx-a5000-anonymised-nvidia-smi-q-x.xml");
  const auto r = parse_smi_query_xml(xml + xml, "q.xml");
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->gpus.size(), 2u);
  EXPECT_TRUE(has_note(*r, "q.xml: 2 GPU section(s) from line")) << r->notes.back();
}

// ... and two machines' documents in one file are refused.
TEST(SmiQueryRepeats, XmlOfTwoMachinesIsRefused) {
  const auto r = parse_smi_query_xml(read_fixture("smi-q/2x-rtx-a5000-anonymised-nvidia-smi-q-x.xml") +
                                         read_fixture("smi-q/a100-sxm4-80gb-mig-enabled-trimmed-1of4-nvidia-smi-q-x.xml"),
                                     "q.xml");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, core::ErrorKind::bad_input);
  EXPECT_NE(r.error().message.find("Attached GPUs is 2 but the file has 3 different GPU sections"), std::string::npos)
      << r.error().message;
}

}  // namespace
}  // namespace gpuvet::parsers
