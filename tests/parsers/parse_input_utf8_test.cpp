// Bytes that are not UTF-8 in a pasted file are replaced by U+FFFD when it is read, with a note
// naming the file and line, so names, serials and NIC names can go into JSON reports.
#include <gtest/gtest.h>

#include <string>

#include "parsers/parse_input.hpp"
#include "topo_test_fixtures.hpp"

namespace gpuvet::parsers {
namespace {

using testing::read_fixture;

const std::string kReplacement = "\xEF\xBF\xBD";  // U+FFFD

TEST(ParseInputUtf8, BadBytesInASerialAreReplacedWithANote) {
  const auto r = parse_file(read_fixture("malformed/smi_query_non_utf8_serial.txt"), "q.txt");
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_TRUE(r->machine);
  const auto& serial = *r->machine->gpus[0].serial;
  EXPECT_NE(serial.find(kReplacement), std::string::npos) << serial;
  EXPECT_EQ(r->machine->notes.back(), "q.txt: line 24: bytes that are not UTF-8 (the first on this line) were replaced by U+FFFD");
  EXPECT_EQ(*r->machine->gpus[0].name, "NVIDIA H100 NVL");
}

TEST(ParseInputUtf8, BadBytesInANicNameAreReplacedWithANote) {
  const auto r = parse_input(read_fixture("malformed/topo-non-utf8-nic-name.txt"), "t.txt");
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_TRUE(r->nics.known());
  bool replaced = false;
  for (const auto& nic : *r->nics) replaced = replaced || (nic.name.known() && nic.name->find(kReplacement) != std::string::npos);
  EXPECT_TRUE(replaced);
  EXPECT_EQ(r->notes.back(), "t.txt: line 20: bytes that are not UTF-8 (the first on this line) were replaced by U+FFFD");
}

TEST(ParseInputUtf8, BenchmarkLogsCarryTheNoteToo) {
  auto log = read_fixture("nccl/8x-a100-sxm4-40gb-nvswitch-allreduce-superbench.txt");
  const auto at = log.find("A100-SXM4-40GB");
  ASSERT_NE(at, std::string::npos);
  log.insert(at, "\xC0\xAF");  // an overlong '/', never valid
  const auto r = parse_file(log, "n.txt");
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_TRUE(r->collective);
  EXPECT_EQ(r->collective->notes.back(), "n.txt: line 4: bytes that are not UTF-8 (the first on this line) were replaced by U+FFFD");
}

TEST(ParseInputUtf8, ValidTextGetsNoNote) {
  const auto r = parse_file(read_fixture("smi-q/2x-h100-nvl-nvidia-smi-q.txt"), "q.txt");
  ASSERT_TRUE(r.ok());
  for (const auto& n : r->machine->notes) EXPECT_EQ(n.find("UTF-8"), std::string::npos) << n;
}

// The -q -x converter stops at smi_query::kMaxDepth; pugixml itself parses without recursion.
TEST(ParseInputDepth, DeeplyNestedXmlIsBadInput) {
  const int n = 100000;
  std::string xml = "<?xml version=\"1.0\" ?>\n<nvidia_smi_log>\n<gpu id=\"00000000:18:00.0\">";
  for (int i = 0; i < n; ++i) xml += "<a>";
  xml += "x";
  for (int i = 0; i < n; ++i) xml += "</a>";
  xml += "</gpu></nvidia_smi_log>\n";
  const auto r = parse_file(xml, "deep.xml");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, core::ErrorKind::bad_input);
  EXPECT_EQ(r.error().message, "deep.xml: line 3: elements nested deeper than 32 levels; expected nvidia-smi -q -x output");
}

TEST(ParseInputDepth, DeeplyNestedNcclJsonIsBadInput) {
  const std::string json = "{\"bus_bw\": 1, \"results\": " + std::string(100000, '[') + std::string(100000, ']') + "}";
  const auto r = parse_file(json, "deep.json");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, core::ErrorKind::bad_input);
  EXPECT_EQ(r.error().message, "deep.json: JSON nested 100001 levels deep, more than the 64 any nccl-tests -J output has");
}

}  // namespace
}  // namespace gpuvet::parsers
