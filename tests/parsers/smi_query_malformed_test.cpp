// Malformed nvidia-smi -q inputs: each gives a bad_input Error naming the file (and the line for
// text) and what was expected; truncation at any point and garbage never crash either parser.
#include <gtest/gtest.h>

#include "smi_query_test_support.hpp"

namespace gpuvet::parsers::test {
namespace {

void expect_input_error(const core::Result<core::Machine>& result, const std::string& file,
                        const std::vector<std::string>& fragments) {
  ASSERT_FALSE(result.ok()) << file << " parsed with " << result.value().gpus.size() << " GPUs";
  EXPECT_EQ(result.error().kind, core::ErrorKind::bad_input);
  EXPECT_EQ(result.error().message.rfind(file + ": ", 0), 0u) << result.error().message;
  for (const auto& fragment : fragments) {
    EXPECT_NE(result.error().message.find(fragment), std::string::npos)
        << "'" << fragment << "' not in: " << result.error().message;
  }
}

TEST(SmiQueryMalformed, EmptyFiles) {
  const std::string text = "malformed/smi_query_empty.txt";
  expect_input_error(parse_smi_query_text(read_fixture(text), text), text, {"line 1", "empty file"});
  expect_input_error(parse_smi_query_xml("", "empty.xml"), "empty.xml", {"empty file"});
  expect_input_error(parse_smi_query_text(" \n\r\n\t\n", "blank.txt"), "blank.txt", {"line 1", "empty file"});
}

TEST(SmiQueryMalformed, NonNumericMemoryText) {
  const std::string file = "malformed/smi_query_non_numeric_memory.txt";
  expect_input_error(parse_fixture(file), file,
                     {"line 98", "GPU 0 (00000000:AD:00.0)", "FB Memory Usage/Total: expected '<n> MiB', found 'abc'"});
}

TEST(SmiQueryMalformed, NonNumericMemoryXml) {
  std::string xml = read_fixture("smi-q/2x-rtx-a5000-anonymised-nvidia-smi-q-x.xml");
  const std::string from = "<total>24564 MiB</total>";
  ASSERT_NE(xml.find(from), std::string::npos);
  xml.replace(xml.find(from), from.size(), "<total>abc</total>");
  expect_input_error(parse_smi_query_xml(xml, "a5000-bad.xml"), "a5000-bad.xml",
                     {"line 129", "fb_memory_usage/total: expected '<n> MiB', found 'abc'"});
}

TEST(SmiQueryMalformed, GpuSectionWithoutProductName) {
  const std::string file = "malformed/smi_query_no_product_name.txt";
  expect_input_error(parse_fixture(file), file, {"line 223", "GPU 1 (00000000:AE:00.0)", "Product Name"});
  const std::string xml = "<nvidia_smi_log><gpu id=\"00000000:01:00.0\"><uuid>x</uuid></gpu></nvidia_smi_log>";
  expect_input_error(parse_smi_query_xml(xml, "noname.xml"), "noname.xml", {"line 1", "<product_name>"});
}

TEST(SmiQueryMalformed, WrongXmlRoot) {
  const std::string file = "malformed/smi_query_wrong_root.xml";
  expect_input_error(parse_fixture(file), file, {"line 2", "<nvidia_smi_log>", "<nvidia_smi>"});
  expect_input_error(parse_smi_query_xml("<nvidia_smi_log><driver_version>1</driver_version></nvidia_smi_log>", "x.xml"),
                     "x.xml", {"<gpu>"});
}

TEST(SmiQueryMalformed, NoGpuSectionsInText) {
  expect_input_error(parse_smi_query_text("Driver Version : 550.54.14\nAttached GPUs : 2\n", "nogpu.txt"), "nogpu.txt",
                     {"line 2", "expected a 'GPU <bus id>' section"});
  // An XML paste handed to the text parser is not -q text either.
  const std::string xml = "smi-q/2x-rtx-a5000-anonymised-nvidia-smi-q-x.xml";
  expect_input_error(parse_smi_query_text(read_fixture(xml), xml), xml, {"expected a 'GPU <bus id>' section"});
}

TEST(SmiQueryMalformed, NonNumericAttachedGpus) {
  std::string text = read_fixture("smi-q/2x-h100-nvl-nvidia-smi-q.txt");
  const std::string from = "Attached GPUs                             : 2";
  ASSERT_NE(text.find(from), std::string::npos);
  text.replace(text.find(from), from.size(), "Attached GPUs : two");
  expect_input_error(parse_smi_query_text(text, "h100.txt"), "h100.txt", {"line 7", "Attached GPUs", "'two'"});
}

// Cuts every text fixture at several byte offsets (mid-line and mid-section): a full -q cut
// anywhere past its first GPU's Product Name is read (review r4 finding 2), with a note that names
// the cut and says "truncated"; a cut before any GPU can be read is an error naming the file and
// a line.
TEST(SmiQueryMalformed, TruncatedTextIsReadUpToTheCut) {
  for (const auto& name : smi_query_fixtures()) {
    if (is_xml(name)) continue;
    const std::string text = read_fixture(name);
    ASSERT_FALSE(text.empty()) << name;
    for (double fraction : {0.02, 0.1, 0.37, 0.5, 0.83, 0.995}) {
      const auto cut = static_cast<std::size_t>(static_cast<double>(text.size()) * fraction);
      SCOPED_TRACE(name + " cut at byte " + std::to_string(cut));
      const auto result = parse_smi_query_text(std::string_view(text).substr(0, cut), name);
      if (!result.ok()) {
        expect_input_error(result, name, {"line ", "no GPU of it can be read"});
        continue;
      }
      ASSERT_FALSE(result->gpus.empty());
      ASSERT_FALSE(result->notes.empty());
      EXPECT_NE(result->notes.back().find("truncated"), std::string::npos) << result->notes.back();
      EXPECT_NE(result->notes.back().find(name + ": line "), std::string::npos) << result->notes.back();
    }
  }
}

// The 4x A100 -q cut at 60 %: GPUs 0 and 1 are whole (GPU 1's remap is pending), GPU 2 is read
// up to its last complete entry, GPU 3 is missing and the note says so.
TEST(SmiQueryMalformed, CutFullOutputKeepsTheCompleteSections) {
  const std::string name = "smi-q/4x-a100-sxm4-80gb-nvidia-smi-q.txt";
  const std::string text = read_fixture(name);
  const auto cut = static_cast<std::size_t>(static_cast<double>(text.size()) * 0.6);
  const auto m = parse_smi_query_text(std::string_view(text).substr(0, cut), name);
  ASSERT_TRUE(m.ok()) << m.error().message;
  ASSERT_EQ(m->gpus.size(), 3u);
  EXPECT_EQ(*m->attached_gpus, 4);
  ASSERT_TRUE(m->gpus[1].memory_health.remap_pending.known());
  EXPECT_TRUE(*m->gpus[1].memory_health.remap_pending);
  EXPECT_EQ(*m->gpus[2].name, "NVIDIA A100-SXM4-80GB");
  EXPECT_FALSE(m->gpus[2].memory_total_mib.known());  // after the cut
  EXPECT_EQ(m->notes.back(),
            name + ": line 523: the output is cut after GPU 1 (truncated paste): of GPU 2 (00000000:C2:00.0) only the "
                   "entries up to 'Performance State' (line 519) are read; 'Clocks Event Reasons' and everything after "
                   "it are cut off (truncated; give the complete nvidia-smi -q output)");
}

// Only the last section can be cut: an earlier one without "Processes" is not one -q output.
TEST(SmiQueryMalformed, AnEarlierSectionWithoutProcessesIsAnError) {
  const std::string name = "smi-q/2x-h100-nvl-nvidia-smi-q.txt";
  std::string text = read_fixture(name);
  const auto first = text.find("    Processes");
  ASSERT_NE(first, std::string::npos);
  ASSERT_NE(text.find("    Processes", first + 1), std::string::npos);
  text.replace(first, 13, "    Processez");
  expect_input_error(parse_smi_query_text(text, name), name, {"GPU 0", "'Processes'", "GPU sections follow"});
}

TEST(SmiQueryMalformed, TruncatedXmlIsAnErrorWithOffset) {
  for (const auto& name : smi_query_fixtures()) {
    if (!is_xml(name)) continue;
    const std::string xml = read_fixture(name);
    ASSERT_FALSE(xml.empty()) << name;
    for (double fraction : {0.001, 0.05, 0.3, 0.5, 0.77, 0.999}) {
      const auto cut = static_cast<std::size_t>(static_cast<double>(xml.size()) * fraction);
      SCOPED_TRACE(name + " cut at byte " + std::to_string(cut));
      expect_input_error(parse_smi_query_xml(std::string_view(xml).substr(0, cut), name), name,
                         {"malformed XML", "byte "});
    }
  }
}

// Every line-prefix of every fixture through its parser: no crash, and either a Machine holding
// whole GPU sections only, or an Error that names the file. One test per fixture so ctest -j
// spreads them. (Each form's parser on the other form is covered by NoGpuSectionsInText.)
class SmiQueryPrefixes : public ::testing::TestWithParam<std::string> {};

TEST_P(SmiQueryPrefixes, EveryLinePrefixIsHandled) {
  const std::string name = GetParam();
  const std::string text = read_fixture(name);
  ASSERT_FALSE(text.empty()) << name;
  const std::size_t want_gpus = truth().at(name).at("gpus").get<std::size_t>();
  std::size_t accepted = 0;
  std::size_t end = 0;
  while (end <= text.size()) {
    const std::string_view prefix = std::string_view(text).substr(0, end);
    const auto result = parse_as(name, prefix);
    if (result.ok()) {
      ++accepted;
      // A prefix that parses holds every GPU section it shows, or all but a last one cut before
      // its name; a cut is never silent.
      std::size_t headers = 0;
      for (auto at = prefix.find("\nGPU 0"); at != std::string_view::npos; at = prefix.find("\nGPU 0", at + 1)) {
        ++headers;
      }
      if (is_xml(name)) {
        ASSERT_EQ(result->gpus.size(), want_gpus) << name << " prefix " << end;
      } else {
        ASSERT_GE(result->gpus.size() + 1, headers) << name << " prefix " << end;
        ASSERT_LE(result->gpus.size(), headers) << name << " prefix " << end;
        const auto processes = prefix.rfind("\n    Processes");
        const bool whole = processes != std::string_view::npos && processes > prefix.rfind("\nGPU 0");
        const bool noted = !result->notes.empty() && result->notes.back().find("truncated") != std::string::npos;
        ASSERT_EQ(noted, !whole) << name << " prefix " << end;
      }
      for (const auto& gpu : result->gpus) ASSERT_TRUE(gpu.name.known()) << name << " prefix " << end;
    } else {
      ASSERT_EQ(result.error().message.rfind(name + ": ", 0), 0u) << result.error().message;
    }
    const auto newline = text.find('\n', end);
    if (newline == std::string::npos) break;
    end = newline + 1;
  }
  // Text: every prefix past the first GPU's Product Name parses; XML: only the whole document.
  EXPECT_GE(accepted, 1u) << name;
  if (is_xml(name)) {
    EXPECT_LE(accepted, 8 * want_gpus) << name;
  }
}

INSTANTIATE_TEST_SUITE_P(AllFixtures, SmiQueryPrefixes, ::testing::ValuesIn(smi_query_fixtures()),
                         [](const ::testing::TestParamInfo<std::string>& param) {
                           return "fixture_" + std::to_string(param.index);
                         });

TEST(SmiQueryMalformed, DeepNestingAndGarbageDoNotCrash) {
  std::string deep_text = "GPU 00000000:01:00.0\n";
  for (int i = 1; i < 5000; ++i) deep_text += std::string(static_cast<std::size_t>(i), ' ') + "Section\n";
  expect_input_error(parse_smi_query_text(deep_text, "deep.txt"), "deep.txt", {"nested deeper"});

  std::string deep_xml = "<nvidia_smi_log><gpu>";
  for (int i = 0; i < 5000; ++i) deep_xml += "<a>";
  for (int i = 0; i < 5000; ++i) deep_xml += "</a>";
  deep_xml += "</gpu></nvidia_smi_log>";
  expect_input_error(parse_smi_query_xml(deep_xml, "deep.xml"), "deep.xml", {"nested deeper"});

  std::string garbage;
  unsigned state = 12345;
  for (int i = 0; i < 20000; ++i) {
    state = state * 1103515245u + 12345u;
    garbage.push_back(static_cast<char>((state >> 16) & 0xff));
  }
  EXPECT_FALSE(parse_smi_query_text(garbage, "garbage.bin").ok());
  EXPECT_FALSE(parse_smi_query_xml(garbage, "garbage.bin").ok());
}

}  // namespace
}  // namespace gpuvet::parsers::test
