// dcgmi nvlink -s (link status per GPU and NVSwitch), on a written variant of DCGM's layout, and
// dcgmi nvlink -e (error counts) on a real capture and variants of it.
#include "parsers/dcgmi_nvlink_parser.hpp"

#include <gtest/gtest.h>

#include "parsers/input_format.hpp"
#include "topo_test_fixtures.hpp"

namespace gpuvet::parsers {
namespace {

TEST(DcgmiNvlink, LinkStatesPerGpuAndTheSwitches) {
  const auto text = testing::read_fixture("malformed/written-dcgmi-nvlink-s-2gpu-1down.txt");
  EXPECT_EQ(detect_format(text), InputFormat::dcgmi_nvlink);
  const auto r = parse_dcgmi_nvlink(text, "d.txt");
  ASSERT_TRUE(r.ok()) << r.error().message;
  const auto& m = r.value();
  ASSERT_EQ(m.gpus.size(), 2u);
  ASSERT_EQ(m.gpus[1].nvlinks->size(), 18u);
  EXPECT_FALSE(*m.gpus[1].nvlinks->at(3).active);
  EXPECT_TRUE(*m.gpus[0].nvlinks->at(17).active);
  EXPECT_TRUE(*m.nvswitch_present);
  EXPECT_FALSE(m.attached_gpus.known());
}

TEST(DcgmiNvlink, NotSupportedSlotsAreNotPortsAndAGpuCutOffIsUnknown) {
  const auto r = parse_dcgmi_nvlink("NvLink Link Status\nGPUs:\n    gpuId 0:\n        U U _ _\n    gpuId 1:\n", "d.txt");
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r.value().gpus[0].nvlinks->size(), 2u);
  EXPECT_FALSE(r.value().gpus[1].nvlinks.known());
  EXPECT_FALSE(r.value().nvswitch_present.known());
  EXPECT_FALSE(parse_dcgmi_nvlink("NvLink Link Status\n", "d.txt").ok());
}

}  // namespace
}  // namespace gpuvet::parsers

namespace gpuvet::parsers {
namespace {

// dcgmi nvlink -e -g 0 | head -n 9 as captured (facebookresearch/gcm docstring, corpus file).
const char* kErrorsCapture = "corpus/nvlink/dcgmi-nvlink-e-gpu0-link0-head-9-gcm.txt";

TEST(DcgmiNvlinkErrors, CountsOfTheRealCaptureAreRead) {
  const auto text = testing::read_fixture(kErrorsCapture);
  EXPECT_EQ(detect_format(text), InputFormat::dcgmi_nvlink);
  const auto r = parse_dcgmi_nvlink(text, "e.txt");
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_EQ(r.value().gpus.size(), 1u);
  const auto& ports = *r.value().gpus[0].nvlinks;
  ASSERT_EQ(ports.size(), 1u);
  EXPECT_FALSE(ports[0].active.known());  // -e shows counts, not states
  ASSERT_EQ(ports[0].error_counters->size(), 4u);
  EXPECT_EQ(ports[0].error_counters->at(0).name, "CRC FLIT Error");
  EXPECT_EQ(ports[0].error_counters->at(3).name, "Recovery Error");
  EXPECT_EQ(ports[0].error_counters->at(2).value, 0u);
}

TEST(DcgmiNvlinkErrors, NonZeroAndNotSupportedCountsAndTwoGpus) {
  // The capture with its Replay count raised and its Recovery count "Not Supported", twice (GPU 0, GPU 1).
  std::string one = testing::read_fixture(kErrorsCapture);
  one.replace(one.find("| 0          ", one.find("Replay Error")), 3, "| 7");
  const auto rec = one.find("| 0          ", one.find("Recovery Error"));
  one.replace(rec, 15, "| Not Supported");
  std::string two = one;
  two.replace(two.find("| GPU 0 "), 8, "| GPU 1 ");
  const auto r = parse_dcgmi_nvlink(one + two, "e.txt");
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_EQ(r.value().gpus.size(), 2u);
  const auto& counters = *r.value().gpus[1].nvlinks->at(0).error_counters;
  ASSERT_EQ(counters.size(), 3u);  // the "Not Supported" one is unknown, not 0
  EXPECT_EQ(counters[2].name, "Replay Error");
  EXPECT_EQ(counters[2].value, 7u);
  bool noted = false;
  for (const auto& n : r.value().notes) noted = noted || n.find("GPU 1 link 0 Recovery Error") != std::string::npos;
  EXPECT_TRUE(noted);
  // GPUs out of order are an error naming the line.
  EXPECT_FALSE(parse_dcgmi_nvlink(two + one, "e.txt").ok());
}

}  // namespace
}  // namespace gpuvet::parsers
