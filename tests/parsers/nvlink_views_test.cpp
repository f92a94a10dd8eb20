// nvidia-smi nvlink views other than -s: error counters (-e / -ec), remote devices (-R) and
// capabilities (-c), on the real -R paste of the corpus and written variants.
#include "parsers/nvlink_status_parser.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "parsers/input_format.hpp"
#include "parsers/nvlink_link_values.hpp"
#include "topo_test_fixtures.hpp"

namespace gpuvet::parsers {
namespace {

using testing::read_fixture;

TEST(NvlinkErrors, CountersPerPortAndAnAuthorsSummaryLine) {
  const auto text = read_fixture("malformed/written-nvlink-e-replay-crc-saturated.txt");
  EXPECT_EQ(detect_format(text), InputFormat::nvlink_status);
  const auto r = parse_nvlink_status(text, "e.txt");
  ASSERT_TRUE(r.ok()) << r.error().message;
  const auto& m = r.value();
  EXPECT_EQ(m.source, "nvidia-smi nvlink -e (e.txt)");
  ASSERT_EQ(m.gpus.size(), 2u);
  const auto& ports = *m.gpus[0].nvlinks;
  ASSERT_EQ(ports.size(), 2u);
  EXPECT_FALSE(ports[1].active.known());  // -e does not show link state
  ASSERT_TRUE(ports[1].error_counters.known());
  EXPECT_EQ(ports[1].error_counters->at(0), (core::NvLinkCounter{"Replay Errors", 2353}));
  const auto& gpu2 = *m.gpus[1].nvlinks;
  EXPECT_EQ(gpu2[0].error_counters->at(2), (core::NvLinkCounter{"CRC Errors", 65535}));
  EXPECT_TRUE(std::any_of(m.notes.begin(), m.notes.end(),
                          [](const std::string& n) { return n.find("summary written by the author") != std::string::npos; }));
  EXPECT_TRUE(counter_saturated(65535));
  EXPECT_FALSE(counter_saturated(65534));
}

TEST(NvlinkErrors, NewerCounterNamesAndValuesThatAreNotErrors) {
  const std::string text =
      "GPU 0: NVIDIA B200 (UUID: GPU-1)\n"
      "         Link 0: Tx packets: 1200\n"
      "         Link 0: Effective Errors: 3\n"
      "         Link 0: Effective BER: 1.5e-15\n"
      "         Link 0: Symbol Errors: 40\n"
      "         Link 0: FEC Errors - 0: 17\n"
      "         Link 0: Link recovery failed events: 0\n";
  const auto r = parse_nvlink_status(text, "e.txt");
  ASSERT_TRUE(r.ok()) << r.error().message;
  const auto& c = *r.value().gpus[0].nvlinks->at(0).error_counters;
  ASSERT_EQ(c.size(), 2u);
  EXPECT_EQ(c[0].name, "Effective Errors");
  EXPECT_EQ(c[1].name, "Link recovery failed events");
  EXPECT_NE(r.value().notes.back().find("4 per-link values that are not error counts"), std::string::npos);
}

TEST(NvlinkRemote, RemoteDevicesWithHighPortNumbersAreNvswitches) {
  const auto r = parse_nvlink_status(read_fixture("corpus/other/8x-h100-nvlink-R-remote-devices-nvswitch-nccl-1182-truncated.txt"), "r.txt");
  ASSERT_TRUE(r.ok()) << r.error().message;
  const auto& m = r.value();
  EXPECT_EQ(m.source, "nvidia-smi nvlink -R (r.txt)");
  const auto& ports = *m.gpus[0].nvlinks;
  ASSERT_EQ(ports.size(), 18u);
  EXPECT_TRUE(*ports[0].active);
  EXPECT_EQ(*ports[0].remote_pci_bus_id, "0000:07:00.0");
  EXPECT_EQ(*ports[0].remote, core::NvLinkRemote::nvswitch);
  EXPECT_EQ(*ports[2].remote, core::NvLinkRemote::nvswitch);  // 06:00.0 shows port 32 elsewhere
  // GPU 1 is cut after two links: the rest are unknown, never down.
  EXPECT_FALSE(m.gpus[1].nvlinks->at(5).active.known());
}

TEST(NvlinkCapabilities, PortsListedStateUnknown) {
  const std::string text =
      "GPU 0: NVIDIA A100-SXM4-80GB (UUID: GPU-1)\n"
      "         Link 0, P2P is supported: true\n"
      "         Link 0, Access to system memory supported: true\n"
      "         Link 1, P2P is supported: true\n";
  const auto r = parse_nvlink_status(text, "c.txt");
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r.value().source, "nvidia-smi nvlink -c (c.txt)");
  ASSERT_EQ(r.value().gpus[0].nvlinks->size(), 2u);
  EXPECT_FALSE(r.value().gpus[0].nvlinks->at(1).active.known());
}

}  // namespace
}  // namespace gpuvet::parsers

namespace gpuvet::parsers {
namespace {

TEST(NvlinkInfo, FirmwareLinesAreNotesAndLinksStayUnknown) {
  const auto r = parse_nvlink_status(
      testing::read_fixture("corpus/other/4x-gb200-nvlink-info-firmware-k8s-test-infra-371-truncated.txt"), "i.txt");
  ASSERT_TRUE(r.ok()) << r.error().message;
  const auto& m = r.value();
  EXPECT_EQ(m.source, "nvidia-smi nvlink -info (i.txt)");
  ASSERT_EQ(m.gpus.size(), 3u);
  EXPECT_EQ(*m.gpus[0].name, "NVIDIA GB200");
  EXPECT_FALSE(m.gpus[0].nvlinks.known());
  EXPECT_EQ(m.gpus[0].nvlinks.reason(), "nvidia-smi nvlink -info does not list the links");
  EXPECT_TRUE(std::any_of(m.notes.begin(), m.notes.end(), [](const std::string& n) {
    return n == "GPU 0: NVLE: disabled, MSE: 14:4:0, NETIR: 36:2014:1862, NETIR UPHY: 7:0:0, NETIR CLN: 0:9:0, NETIR DLN: 0:9:0";
  }));
}

}  // namespace
}  // namespace gpuvet::parsers
