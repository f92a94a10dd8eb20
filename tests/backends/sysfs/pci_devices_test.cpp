// list_gpus and read_pci_gpu over the hand-built sysfs trees.
#include "backends/sysfs/pci_devices.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sysfs_fixture.hpp"

namespace gpuvet::sysfs {
namespace {

using testing::fixture_root;

bool mentions(const std::string& reason, const std::string& what) {
  return reason.find(what) != std::string::npos;
}

struct ExpectedGpu {
  std::string bus_id;
  int numa_node;
  std::string cpus;
  int gen_current, gen_max, width_current, width_max;
};

TEST(ListGpus, Hgx2SocketHasEightGpusInBusOrder) {
  const std::string c0 = "0-55,112-167", c1 = "56-111,168-223";
  const std::vector<ExpectedGpu> expected{
      {"0000:18:00.0", 0, c0, 5, 5, 16, 16}, {"0000:2a:00.0", 0, c0, 5, 5, 16, 16},
      {"0000:3a:00.0", 0, c0, 5, 5, 16, 16}, {"0000:5d:00.0", 0, c0, 4, 5, 8, 16},  // downtrained
      {"0000:9a:00.0", 1, c1, 5, 5, 16, 16}, {"0000:ab:00.0", 1, c1, 5, 5, 16, 16},
      {"0000:ba:00.0", 1, c1, 5, 5, 16, 16}, {"0000:db:00.0", 1, c1, 5, 5, 16, 16}};
  const auto gpus = list_gpus(fixture_root("hgx-2socket"));
  ASSERT_EQ(gpus.size(), expected.size());  // ASPEED VGA, bridges and NICs are not GPUs
  for (size_t i = 0; i < gpus.size(); ++i) {
    const auto& gpu = gpus[i];
    const auto& want = expected[i];
    SCOPED_TRACE(want.bus_id);
    EXPECT_EQ(gpu.index, static_cast<int>(i));
    EXPECT_EQ(gpu.pci_bus_id.value_or("?"), want.bus_id);
    EXPECT_EQ(gpu.numa_node.value_or(-1), want.numa_node);
    EXPECT_EQ(gpu.cpu_affinity.value_or("?"), want.cpus);
    EXPECT_EQ(gpu.pcie.gen_current.value_or(0), want.gen_current);
    EXPECT_EQ(gpu.pcie.gen_max.value_or(0), want.gen_max);
    EXPECT_EQ(gpu.pcie.width_current.value_or(0), want.width_current);
    EXPECT_EQ(gpu.pcie.width_max.value_or(0), want.width_max);
  }
}

TEST(ListGpus, FieldsSysfsCannotSeeAreAbsentWithAReason) {
  const auto gpus = list_gpus(fixture_root("hgx-2socket"));
  ASSERT_FALSE(gpus.empty());
  const auto& gpu = gpus.front();
  EXPECT_EQ(gpu.name.reason(), kNotInSysfs);
  EXPECT_EQ(gpu.uuid.reason(), kNotInSysfs);
  EXPECT_EQ(gpu.memory_total_mib.reason(), kNotInSysfs);
  EXPECT_EQ(gpu.nvlinks.reason(), kNotInSysfs);
  EXPECT_EQ(gpu.memory_health.remap_pending.reason(), kNotInSysfs);
  EXPECT_EQ(gpu.clocks_event_reasons.reason(), kNotInSysfs);
}

TEST(ListGpus, WorkstationVgaClassGpusWithoutTheirAudioFunctions) {
  const auto gpus = list_gpus(fixture_root("workstation"));
  ASSERT_EQ(gpus.size(), 2u);
  EXPECT_EQ(*gpus[0].pci_bus_id, "0000:01:00.0");
  EXPECT_EQ(*gpus[1].pci_bus_id, "0000:21:00.0");
  EXPECT_EQ(gpus[0].pcie.gen_current.value_or(0), 4);
  EXPECT_EQ(gpus[1].pcie.gen_current.value_or(0), 1);  // idle GPU: link at 2.5 GT/s
  EXPECT_EQ(gpus[1].pcie.gen_max.value_or(0), 4);
  EXPECT_EQ(gpus[1].numa_node.value_or(-1), 0);
}

TEST(ListGpus, BrokenTreeDegradesToAbsences) {
  const auto gpus = list_gpus(fixture_root("broken"));
  // 03:00.0 dangles and 04:00.0 has no class file: neither can be called a GPU.
  ASSERT_EQ(gpus.size(), 2u);
  const auto& first = gpus[0];
  EXPECT_EQ(*first.pci_bus_id, "0000:01:00.0");
  EXPECT_FALSE(first.numa_node);
  EXPECT_TRUE(mentions(first.numa_node.reason(), "-1")) << first.numa_node.reason();
  EXPECT_EQ(first.pcie.gen_current.value_or(0), 4);

  const auto& second = gpus[1];
  EXPECT_EQ(*second.pci_bus_id, "0000:02:00.0");
  EXPECT_FALSE(second.numa_node);
  EXPECT_TRUE(mentions(second.numa_node.reason(), "'zero'")) << second.numa_node.reason();
  EXPECT_FALSE(second.cpu_affinity);
  EXPECT_TRUE(mentions(second.cpu_affinity.reason(), "empty")) << second.cpu_affinity.reason();
  EXPECT_FALSE(second.pcie.gen_current);
  EXPECT_TRUE(mentions(second.pcie.gen_current.reason(), "'Unknown'"));
  EXPECT_FALSE(second.pcie.gen_max);
  EXPECT_TRUE(mentions(second.pcie.gen_max.reason(), "max_link_speed not readable"));
  EXPECT_FALSE(second.pcie.width_current);
  EXPECT_TRUE(mentions(second.pcie.width_current.reason(), "'x16?!'"));
  EXPECT_EQ(second.pcie.width_max.value_or(0), 16);
}

TEST(ListGpus, MissingRootGivesNothingAndSaysSo) {
  const auto root = testing::missing_root();
  EXPECT_TRUE(list_gpus(root).empty());
  EXPECT_FALSE(pci_bus_visible(root));
  EXPECT_TRUE(pci_bus_visible(fixture_root("hgx-2socket")));
}

TEST(ReadPciGpu, AcceptsNvmlSpellingsOfTheBusId) {
  const auto root = fixture_root("hgx-2socket");
  for (const char* spelling : {"00000000:5D:00.0", "0000:5d:00.0", "5d:00.0"}) {
    const auto gpu = read_pci_gpu(root, spelling);
    ASSERT_TRUE(gpu) << spelling;
    EXPECT_EQ(gpu->pci_bus_id.value_or("?"), "0000:5d:00.0");
    EXPECT_EQ(gpu->pcie.width_current.value_or(0), 8);
  }
}

TEST(ReadPciGpu, UnknownDanglingAndHostileIdsAreNotFound) {
  EXPECT_FALSE(read_pci_gpu(fixture_root("hgx-2socket"), "0000:77:00.0"));
  EXPECT_FALSE(read_pci_gpu(fixture_root("hgx-2socket"), "../../../etc"));
  EXPECT_FALSE(read_pci_gpu(fixture_root("broken"), "0000:03:00.0"));
  EXPECT_FALSE(read_pci_gpu(testing::missing_root(), "0000:18:00.0"));
  EXPECT_TRUE(pci_device_path(fixture_root("hgx-2socket"), "0000:18:00.0"));
  EXPECT_EQ(pci_device_path(fixture_root("hgx-2socket"), "0000:18:00.0").value_or("?"),
            "/sys/devices/pci0000:15/0000:15:01.0/0000:16:00.0/0000:17:00.0/0000:18:00.0");
}

}  // namespace
}  // namespace gpuvet::sysfs
