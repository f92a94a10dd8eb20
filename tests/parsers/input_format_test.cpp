// Format detection over every real capture (topo, nvlink, smi-q) and over text that is none
// of them (nccl-tests, nvbandwidth, p2pBandwidthLatencyTest, nvidia-smi -L, garbage).
#include "parsers/input_format.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "topo_test_fixtures.hpp"

namespace gpuvet::parsers {
namespace {

using testing::fixture_files;
using testing::read_fixture;

TEST(InputFormat, EveryFixtureIsRecognised) {
  struct Folder {
    const char* dir;
    InputFormat txt;
    InputFormat xml;
  };
  const Folder folders[] = {
      {"topo", InputFormat::topo_matrix, InputFormat::unknown},
      {"nvlink", InputFormat::nvlink_status, InputFormat::unknown},
      {"smi-q", InputFormat::smi_query_text, InputFormat::smi_query_xml},
  };
  int seen = 0;
  for (const auto& f : folders) {
    for (const auto& path : fixture_files(f.dir)) {
      SCOPED_TRACE(path);
      const bool xml = path.size() > 4 && path.substr(path.size() - 4) == ".xml";
      EXPECT_EQ(to_string(detect_format(read_fixture(path))), to_string(xml ? f.xml : f.txt));
      ++seen;
    }
  }
  EXPECT_EQ(seen, 11 + 4 + 10);
}

TEST(InputFormat, OtherTextIsUnknown) {
  const char* texts[] = {
      "",
      "\x7f" "ELF\x02\x01",
      "GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-1)\nGPU 1: NVIDIA H100 80GB HBM3 (UUID: GPU-2)\n",  // nvidia-smi -L
      "GPU0 X PHB\n",  // a row without its header
  };
  for (const char* t : texts) EXPECT_EQ(detect_format(t), InputFormat::unknown) << t;
}

TEST(InputFormat, NcclTestsHeaderIsNcclTests) {
  EXPECT_EQ(detect_format("# nThread 1 nGpus 8 minBytes 8 maxBytes 8589934592\n"
                          "#  Rank  0 Group  0 Pid 1 on host device  0 [0x07] NVIDIA A100\n"),
            InputFormat::nccl_tests_text);
  EXPECT_EQ(detect_format("{\"results\": [{\"busbw\": 1}]}"), InputFormat::nccl_tests_json);
  EXPECT_EQ(detect_format("P2P Connectivity Matrix\n     D\\D     0     1\n     0\t     1     1\n"),
            InputFormat::p2p_test);
}

TEST(InputFormat, DetectorsCoverTheirMarkers) {
  EXPECT_EQ(detect_format("<?xml version=\"1.0\" ?>\n<nvidia_smi_log>\n</nvidia_smi_log>\n"), InputFormat::smi_query_xml);
  EXPECT_EQ(detect_format("\n==============NVSMI LOG==============\n"), InputFormat::smi_query_text);
  EXPECT_EQ(detect_format("Timestamp : x\nAttached GPUs                             : 8\n"), InputFormat::smi_query_text);
  EXPECT_EQ(detect_format("  \tGPU0\tGPU1\r\nGPU0\t X \tPHB\r\n"), InputFormat::topo_matrix);
  EXPECT_EQ(detect_format("\tGPU0\tCPU Affinity\tNUMA Affinity\nGPU0\t X \t0-7\t0\n"), InputFormat::topo_matrix);
  EXPECT_EQ(detect_format("GPU 2: NVIDIA RTX A6000 (UUID: GPU-0)\nNVML: Unable to retrieve NVLink information as all links are inActive\n"),
            InputFormat::nvlink_status);
}

TEST(InputFormat, NamesAreTheEnumerators) {
  EXPECT_EQ(to_string(InputFormat::topo_matrix), "topo_matrix");
  EXPECT_EQ(to_string(InputFormat::smi_query_text), "smi_query_text");
  EXPECT_EQ(to_string(InputFormat::smi_query_xml), "smi_query_xml");
  EXPECT_EQ(to_string(InputFormat::nvlink_status), "nvlink_status");
  EXPECT_EQ(to_string(InputFormat::unknown), "unknown");
}

// Every format has its row in the one table: a name of its own and a section name.
TEST(InputFormat, EveryFormatHasARow) {
  std::set<std::string_view> names;
  for (int i = 0; i < static_cast<int>(InputFormat::unknown); ++i) {
    const auto format = static_cast<InputFormat>(i);
    EXPECT_NE(to_string(format), "unknown") << i;
    EXPECT_TRUE(names.insert(to_string(format)).second) << to_string(format);
    EXPECT_NE(output_name(format), "unrecognised text") << to_string(format);
  }
  EXPECT_EQ(output_name(InputFormat::smi_query_xml), "nvidia-smi -q -x");
  EXPECT_EQ(output_name(InputFormat::unknown), "unrecognised text");
}

// The paste splitter reads its line starts from the same table: "<?xml" always opens an output,
// "<nvidia_smi_log" and an NCCL INFO line go on with one of their own kind, a topo header does not.
TEST(InputFormat, LineStartsComeFromTheSameTable) {
  const auto lines = split_lines(
      "<?xml version=\"1.0\" ?>\n<nvidia_smi_log>\n\n\tGPU0\tGPU1\n"
      "node1:1:1 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.1<0>\nplain text\n");
  const auto at = [&](size_t i) { return output_start(lines, i); };
  EXPECT_EQ(at(0).format, InputFormat::smi_query_xml);
  EXPECT_FALSE(at(0).continues);
  EXPECT_EQ(at(1).format, InputFormat::smi_query_xml);
  EXPECT_TRUE(at(1).continues);
  EXPECT_EQ(at(2).format, InputFormat::unknown);
  EXPECT_EQ(at(3).format, InputFormat::topo_matrix);
  EXPECT_FALSE(at(3).continues);
  EXPECT_EQ(at(4).format, InputFormat::nccl_tests_text);
  EXPECT_TRUE(at(4).continues);
  EXPECT_EQ(at(5).format, InputFormat::unknown);
}

}  // namespace
}  // namespace gpuvet::parsers
