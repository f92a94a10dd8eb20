// read_nics over the hand-built sysfs trees.
#include "backends/sysfs/infiniband.hpp"

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

struct ExpectedNic {
  std::string name, bus_id, state;
  double rate_gbit_s;  // 0: absent
  int numa_node;
};

TEST(ReadNics, HgxHasFourNdrPortsOneDown) {
  const std::vector<ExpectedNic> expected{{"mlx5_0", "0000:19:00.0", "ACTIVE", 400, 0},
                                          {"mlx5_1", "0000:3b:00.0", "ACTIVE", 400, 0},
                                          {"mlx5_2", "0000:9b:00.0", "ACTIVE", 400, 1},
                                          {"mlx5_3", "0000:bb:00.0", "DOWN", 0, 1}};
  const auto nics = read_nics(fixture_root("hgx-2socket"));
  ASSERT_TRUE(nics) << nics.reason();
  ASSERT_EQ(nics->size(), expected.size());
  for (size_t i = 0; i < expected.size(); ++i) {
    const auto& nic = (*nics)[i];
    const auto& want = expected[i];
    SCOPED_TRACE(want.name);
    EXPECT_EQ(nic.label, "NIC" + std::to_string(i));
    EXPECT_EQ(nic.name.value_or("?"), want.name);
    EXPECT_EQ(nic.pci_bus_id.value_or("?"), want.bus_id);
    EXPECT_EQ(nic.state.value_or("?"), want.state);
    EXPECT_EQ(nic.link_layer.value_or("?"), "InfiniBand");
    EXPECT_EQ(nic.numa_node.value_or(-1), want.numa_node);
    EXPECT_DOUBLE_EQ(nic.rate_gbit_s.value_or(0), want.rate_gbit_s);
    EXPECT_FALSE(nic.gpu_proximity);
  }
  EXPECT_TRUE(mentions((*nics)[3].rate_gbit_s.reason(), "DOWN"));
}

TEST(ReadNics, NoInfinibandClassIsAbsent) {
  for (const auto& root : {fixture_root("workstation"), testing::missing_root()}) {
    const auto nics = read_nics(root);
    EXPECT_FALSE(nics);
    EXPECT_TRUE(mentions(nics.reason(), "/sys/class/infiniband missing")) << nics.reason();
  }
}

TEST(ReadNics, BrokenDevicesDegradeFieldByField) {
  const auto nics = read_nics(fixture_root("broken"));
  ASSERT_TRUE(nics);
  ASSERT_EQ(nics->size(), 2u);
  const auto& dangling = (*nics)[0];
  EXPECT_EQ(dangling.name.value_or("?"), "mlx5_0");
  EXPECT_FALSE(dangling.pci_bus_id);
  EXPECT_TRUE(mentions(dangling.pci_bus_id.reason(), "dangling"));
  EXPECT_FALSE(dangling.numa_node);
  EXPECT_FALSE(dangling.rate_gbit_s);
  EXPECT_TRUE(mentions(dangling.rate_gbit_s.reason(), "'fast'"));
  EXPECT_FALSE(dangling.state);
  EXPECT_TRUE(mentions(dangling.state.reason(), "'ACTIVE?'"));
  EXPECT_FALSE(dangling.link_layer);

  const auto& virtual_dev = (*nics)[1];  // lives under /sys/devices/virtual, no ports
  EXPECT_EQ(virtual_dev.name.value_or("?"), "mlx5_1");
  EXPECT_FALSE(virtual_dev.pci_bus_id);
  EXPECT_FALSE(virtual_dev.state);
  EXPECT_TRUE(mentions(virtual_dev.state.reason(), "no port"));
}

}  // namespace
}  // namespace gpuvet::sysfs
