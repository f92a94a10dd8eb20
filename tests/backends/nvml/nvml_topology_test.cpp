// Unit tests of the link matrix built from NVLink ports (no library involved).
#include <gtest/gtest.h>

#include <fmt/format.h>

#include "backends/nvml/nvml_device.hpp"
#include "backends/nvml/nvml_topology.hpp"

namespace gpuvet::nvml {
namespace {

using core::LinkKind;
using core::NvLinkRemote;

core::Gpu gpu(int index) {
  core::Gpu g;
  g.index = index;
  g.pci_bus_id = fmt::format("0000:{:02x}:00.0", 0x18 + index);
  g.nvlinks = std::vector<core::NvLinkPort>{};
  return g;
}

void add_ports(core::Gpu& g, int count, core::Reading<NvLinkRemote> remote, core::Reading<std::string> bus, bool active = true) {
  auto& ports = g.nvlinks.value();
  for (int i = 0; i < count; ++i) {
    core::NvLinkPort p;
    p.link = static_cast<int>(ports.size());
    p.active = active;
    p.remote = remote;
    p.remote_pci_bus_id = bus;
    ports.push_back(p);
  }
}

PciePathLookup constant_path(LinkKind kind) {
  return [kind](int, int) { return core::Reading<LinkKind>(kind); };
}

TEST(NvmlTopology, SwitchFabricUsesSmallerSwitchLinkCount) {
  std::vector<core::Gpu> gpus;
  for (int i = 0; i < 4; ++i) {
    gpus.push_back(gpu(i));
    add_ports(gpus.back(), 18, NvLinkRemote::nvswitch, std::string("0000:c0:00.0"));
  }
  gpus[2].nvlinks.value()[5].active = false;  // one link down on GPU 2
  const auto matrix = build_link_matrix(gpus, constant_path(LinkKind::sys));
  ASSERT_TRUE(matrix.known()) << matrix.reason();
  EXPECT_EQ(matrix->at(0, 1), (core::Link{LinkKind::nvlink, 18}));
  EXPECT_EQ(matrix->at(2, 0), (core::Link{LinkKind::nvlink, 17}));
  EXPECT_EQ(matrix->at(3, 2), (core::Link{LinkKind::nvlink, 17}));
  EXPECT_EQ(matrix->at(2, 2).kind, LinkKind::self);
  EXPECT_EQ(nvswitch_present(gpus), core::Reading<bool>(true));
}

TEST(NvmlTopology, DirectPairsCountLinksToPeerBusIdOthersUsePcie) {
  std::vector<core::Gpu> gpus = {gpu(0), gpu(1), gpu(2)};
  add_ports(gpus[0], 4, NvLinkRemote::gpu, gpus[1].pci_bus_id);
  add_ports(gpus[1], 4, NvLinkRemote::gpu, gpus[0].pci_bus_id);
  const auto matrix = build_link_matrix(gpus, [](int a, int b) {
    return core::Reading<LinkKind>(a + b == 2 ? LinkKind::phb : LinkKind::sys);
  });
  ASSERT_TRUE(matrix.known()) << matrix.reason();
  EXPECT_EQ(matrix->at(0, 1), (core::Link{LinkKind::nvlink, 4}));
  EXPECT_EQ(matrix->at(0, 2).kind, LinkKind::phb);
  EXPECT_EQ(matrix->at(1, 2).kind, LinkKind::sys);
  EXPECT_EQ(nvswitch_present(gpus), core::Reading<bool>(false));
}

TEST(NvmlTopology, RemoteTypeMissingStillMatchesPeerGpuByBusId) {
  const auto missing = core::Reading<NvLinkRemote>::absent("NVML symbol nvmlDeviceGetNvLinkRemoteDeviceType missing");
  std::vector<core::Gpu> gpus = {gpu(0), gpu(1)};
  add_ports(gpus[0], 2, missing, gpus[1].pci_bus_id);
  add_ports(gpus[1], 2, missing, gpus[0].pci_bus_id);
  add_ports(gpus[1], 1, missing, gpus[0].pci_bus_id, false);  // an inactive third port
  const auto matrix = build_link_matrix(gpus, constant_path(LinkKind::sys));
  ASSERT_TRUE(matrix.known()) << matrix.reason();
  EXPECT_EQ(matrix->at(1, 0), (core::Link{LinkKind::nvlink, 2}));
  EXPECT_EQ(nvswitch_present(gpus), core::Reading<bool>(false));
}

TEST(NvmlTopology, UnidentifiableRemoteMakesMatrixAbsent) {
  const auto missing = core::Reading<NvLinkRemote>::absent("no remote type");
  std::vector<core::Gpu> gpus = {gpu(0), gpu(1)};
  add_ports(gpus[0], 1, missing, std::string("0000:c0:00.0"));
  const auto matrix = build_link_matrix(gpus, constant_path(LinkKind::sys));
  ASSERT_FALSE(matrix.known());
  EXPECT_NE(matrix.reason().find("GPU 0 NVLink 0 remote unknown: no remote type"), std::string::npos);
  EXPECT_FALSE(nvswitch_present(gpus).known());
}

TEST(NvmlTopology, NoNvLinkSupportFallsBackToPcieAndFailedLookupNamesThePair) {
  std::vector<core::Gpu> gpus = {gpu(0), gpu(1)};
  for (auto& g : gpus) g.nvlinks = core::Reading<std::vector<core::NvLinkPort>>::absent(kNotSupported);
  const auto matrix = build_link_matrix(gpus, constant_path(LinkKind::pix));
  ASSERT_TRUE(matrix.known());
  EXPECT_EQ(matrix->at(0, 1).kind, LinkKind::pix);
  EXPECT_EQ(nvswitch_present(gpus), core::Reading<bool>(false));
  const auto failed = build_link_matrix(gpus, [](int, int) { return core::Reading<LinkKind>::absent("symbol X missing"); });
  ASSERT_FALSE(failed.known());
  EXPECT_EQ(failed.reason(), "PCIe path GPU 0 - GPU 1: symbol X missing");
}

TEST(NvmlTopology, UnreadableNvLinkIsNotTreatedAsNoNvLink) {
  std::vector<core::Gpu> gpus = {gpu(0), gpu(1)};
  gpus[1].nvlinks = core::Reading<std::vector<core::NvLinkPort>>::absent(kGpuLost);
  EXPECT_FALSE(build_link_matrix(gpus, constant_path(LinkKind::sys)).known());
  EXPECT_FALSE(nvswitch_present(gpus).known());
  EXPECT_TRUE(build_link_matrix({}, constant_path(LinkKind::sys)).known());
  EXPECT_FALSE(nvswitch_present({}).known());
}

}  // namespace
}  // namespace gpuvet::nvml
