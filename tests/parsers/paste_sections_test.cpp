// One file of several outputs: real fixture outputs pasted one after another (as vendors send
// them, with and without shell prompts), and gpuvet collect files with section markers.
#include <gtest/gtest.h>

#include "parsers/input_format.hpp"
#include "parsers/parse_input.hpp"
#include "parsers/paste_sections.hpp"
#include "topo_test_fixtures.hpp"

namespace gpuvet::parsers {
namespace {

using testing::read_fixture;

const std::string kTopo8 = "topo/8x-a100-sxm4-40gb-nv12-17nic-1numa.txt";
const std::string kSmiQ8 = "smi-q/8x-a100-sxm4-40gb-nvidia-smi-a.txt";

bool has_note(const core::Machine& m, std::string_view part) {
  for (const auto& n : m.notes) {
    if (n.find(part) != std::string::npos) return true;
  }
  return false;
}

int lines_in(const std::string& text) {
  int n = 0;
  for (char c : text) n += c == '\n';
  return n;
}

TEST(SplitPaste, OneOutputIsNotSplit) {
  for (const auto& f : {kTopo8, kSmiQ8, std::string("nvlink/8x-h800-nvlink-status-8links-gpus2-6-elided.txt"),
                        std::string("smi-q/2x-rtx-a5000-anonymised-nvidia-smi-q-x.xml")}) {
    EXPECT_FALSE(split_paste(read_fixture(f))) << f;
  }
}

TEST(SplitPaste, TopoThenQueryAreTwoSectionsWithTheFilesLineNumbers) {
  const auto topo = read_fixture(kTopo8);
  const auto paste = split_paste(topo + "\n" + read_fixture(kSmiQ8));
  ASSERT_TRUE(paste);
  ASSERT_EQ(paste->sections.size(), 2u);
  EXPECT_EQ(paste->sections[0].first_line, 1);
  EXPECT_EQ(detect_format(paste->sections[0].text), InputFormat::topo_matrix);
  EXPECT_EQ(detect_format(paste->sections[1].text), InputFormat::smi_query_text);
  EXPECT_GT(paste->sections[1].first_line, lines_in(topo));
  // The section text keeps the file's line numbers: as many newlines before it as lines above it.
  EXPECT_EQ(paste->sections[1].text.find_first_not_of('\n'), static_cast<size_t>(paste->sections[1].first_line - 1));
}

TEST(ParsePaste, TopologyIsNoLongerLostWhenTopoAndQueryComeInOnePaste) {
  const auto text = "$ nvidia-smi topo -m\n" + read_fixture(kTopo8) + "\nuser@node1:~$ nvidia-smi -q\n" + read_fixture(kSmiQ8);
  const auto r = parse_file(text, "paste.txt");
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_TRUE(r.value().machine);
  const auto& m = *r.value().machine;
  ASSERT_EQ(m.gpus.size(), 8u);
  EXPECT_TRUE(m.links.known());                          // from topo -m
  EXPECT_NE(m.gpus[0].name->find("A100"), std::string::npos);  // from -q
  ASSERT_EQ(r.value().sections.size(), 2u);
  EXPECT_EQ(r.value().sections[0].rfind("nvidia-smi topo -m (lines 1-", 0), 0u) << r.value().sections[0];
  EXPECT_EQ(r.value().sections[1].rfind("nvidia-smi -q (lines ", 0), 0u) << r.value().sections[1];
  EXPECT_TRUE(has_note(m, "paste.txt: a paste of 2 sections: nvidia-smi topo -m"));
}

TEST(ParsePaste, SectionsThatDisagreeAreRefusedNamingTheGpu) {
  // A 2-GPU topo -m pasted above an 8-GPU -q: not one machine.
  const auto text = read_fixture("topo/2x-rtx2080ti-pcie-pix-autodl.txt") + "\n" + read_fixture(kSmiQ8);
  const auto r = parse_file(text, "paste.txt");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, core::ErrorKind::bad_input);
}

TEST(ParsePaste, ABrokenSectionIsAnErrorNamingItsLines) {
  const auto text = read_fixture(kTopo8) + "\n==============NVSMI LOG==============\n\nAttached GPUs : two\n";
  const auto r = parse_file(text, "paste.txt");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("(in the nvidia-smi -q section, lines "), std::string::npos) << r.error().message;
}

TEST(ParsePaste, BenchmarkLogsAfterTheMachineViewsAreKept) {
  const auto text = read_fixture(kTopo8) + "\n" + read_fixture("nccl/8x-a100-sxm4-40gb-nvswitch-allreduce-superbench.txt") +
                    "\n" + read_fixture("nvbandwidth/8x-h800-sxm-nv8-full-run-v0.2.txt") + "\n" +
                    read_fixture("p2p/4x-rtx6000ada-pcie-asus-esc8000a.txt");
  const auto r = parse_file(text, "paste.txt");
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_TRUE(r.value().machine);
  ASSERT_TRUE(r.value().collective);
  EXPECT_EQ(r.value().collective->op, "all_reduce");
  ASSERT_TRUE(r.value().bandwidth);
  EXPECT_EQ(r.value().bandwidth->tool, "nvbandwidth");
  ASSERT_EQ(r.value().more_bandwidth.size(), 1u);
  EXPECT_EQ(r.value().sections.size(), 4u);
}

std::string collect_file() {
  return std::string(kCollectMagic) + "\n### host: node1\n### date: 2026-12-01T17:00:00Z\n" +
         "### section: nvidia-smi -q -x\n### status: exit 0\n" + read_fixture("smi-q/2x-rtx-a5000-anonymised-nvidia-smi-q-x.xml") +
         "### section: nvidia-smi nvlink -s\n### status: exit 0\n" +
         "### section: ibstat\n### status: not found\n" +
         "### section: lscpu\n### status: exit 0\nArchitecture:  x86_64\nModel name:    AMD EPYC 7313 16-Core Processor\n"
         "Socket(s):     1\nNUMA node(s):  1\n" +
         "### end\n";
}

TEST(SplitPaste, CollectFileSectionsFollowTheMarkers) {
  const auto paste = split_paste(collect_file());
  ASSERT_TRUE(paste);
  EXPECT_TRUE(paste->collect_file);
  ASSERT_EQ(paste->header.size(), 2u);
  EXPECT_EQ(paste->header[0], "host: node1");
  ASSERT_EQ(paste->sections.size(), 4u);
  EXPECT_EQ(paste->sections[0].label, "nvidia-smi -q -x");
  EXPECT_FALSE(paste->sections[0].not_collected);
  EXPECT_TRUE(paste->sections[1].blank());
  EXPECT_EQ(*paste->sections[2].not_collected, "not found");
}

TEST(ParsePaste, CollectFileIsReadAndSaysWhatWasNotCollected) {
  const auto r = parse_file(collect_file(), "collect.txt");
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_TRUE(r.value().machine);
  const auto& m = *r.value().machine;
  EXPECT_EQ(m.gpus.size(), 2u);
  EXPECT_TRUE(has_note(m, "collect.txt: ibstat was not collected (not found)"));
  EXPECT_TRUE(has_note(m, "Model name: AMD EPYC 7313 16-Core Processor; Socket(s): 1; NUMA node(s): 1"));
  EXPECT_TRUE(has_note(m, "nvidia-smi nvlink -s (printed nothing)"));
  EXPECT_TRUE(has_note(m, "written by gpuvet collect (host: node1, date: 2026-12-01T17:00:00Z)"));
}

// Issue 20: a collect file cut before its "### end" line, or without its nvidia-smi -q -x section,
// is read with a note, and what it cannot show is not_read (the verdict is then incomplete).
TEST(ParsePaste, CollectFileCutOrWithoutItsQuerySectionSaysWhatIsNotRead) {
  const auto whole = parse_file(collect_file(), "collect.txt");
  ASSERT_TRUE(whole.ok()) << whole.error().message;
  EXPECT_TRUE(split_paste(collect_file())->collect_ended);
  EXPECT_TRUE(whole.value().machine->not_read.empty());

  const std::string text = collect_file();
  const std::string cut = text.substr(0, text.rfind("### end"));
  EXPECT_FALSE(split_paste(cut)->collect_ended);
  const auto r = parse_file(cut, "collect.txt");
  ASSERT_TRUE(r.ok()) << r.error().message;
  const auto& m = *r.value().machine;
  EXPECT_EQ(m.gpus.size(), 2u);
  const int last = lines_in(cut);
  EXPECT_TRUE(has_note(m, "collect.txt: the gpuvet collect file is cut: it ends in the lscpu section (line " +
                              std::to_string(last) + ") without its \"### end\" line"));
  ASSERT_EQ(m.not_read.size(), 1u);
  EXPECT_NE(m.not_read[0].find("the sections after it are not judged"), std::string::npos) << m.not_read[0];

  const std::string no_query = std::string(kCollectMagic) + "\n### section: nvidia-smi topo -m\n### status: exit 0\n" +
                               read_fixture("topo/2x-rtx6000ada-pcie-phb-2nic-threadripper.txt") + "### end\n";
  const auto q = parse_file(no_query, "collect.txt");
  ASSERT_TRUE(q.ok()) << q.error().message;
  EXPECT_TRUE(has_note(*q.value().machine, "the gpuvet collect file has no nvidia-smi -q -x output"));
  ASSERT_EQ(q.value().machine->not_read.size(), 1u);
  EXPECT_EQ(q.value().machine->not_read[0].rfind("collect.txt: no nvidia-smi -q -x section: what it shows of each GPU", 0), 0u)
      << q.value().machine->not_read[0];
}

TEST(ParsePaste, CollectFileWithNothingReadableIsBadInput) {
  const std::string text = std::string(kCollectMagic) + "\n### section: nvidia-smi -q -x\n### status: not found\n### end\n";
  const auto r = parse_file(text, "collect.txt");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, core::ErrorKind::bad_input);
  EXPECT_NE(r.error().message.find("none that gpuvet reads"), std::string::npos) << r.error().message;
}

}  // namespace
}  // namespace gpuvet::parsers
