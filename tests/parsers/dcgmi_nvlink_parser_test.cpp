// dcgmi nvlink -s (link status per GPU and NVSwitch), on a written variant of DCGM's layout.
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
