// pcie_path over the hand-built trees, and classify_pcie_path on placements no tree has.
#include "backends/sysfs/pcie_path.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sysfs_fixture.hpp"

namespace gpuvet::sysfs {
namespace {

using core::LinkKind;
using testing::fixture_root;

struct PathCase {
  std::string tree, a, b;
  LinkKind kind;
};

TEST(PciePath, MatchesNvidiaSmiVocabulary) {
  const std::vector<PathCase> cases{
      {"hgx-2socket", "0000:18:00.0", "0000:18:00.0", LinkKind::self},
      {"hgx-2socket", "0000:18:00.0", "0000:2a:00.0", LinkKind::pix},  // same switch
      {"hgx-2socket", "0000:18:00.0", "0000:19:00.0", LinkKind::pix},  // GPU and its NIC
      {"hgx-2socket", "0000:9a:00.0", "0000:ab:00.0", LinkKind::pix},
      {"hgx-2socket", "0000:9a:00.0", "0000:ba:00.0", LinkKind::pxb},  // two switches below one
      {"hgx-2socket", "0000:9b:00.0", "0000:db:00.0", LinkKind::pxb},
      {"hgx-2socket", "0000:18:00.0", "0000:3a:00.0", LinkKind::node},  // two root complexes, node 0
      {"hgx-2socket", "0000:18:00.0", "0000:9a:00.0", LinkKind::sys},
      {"hgx-2socket", "0000:5d:00.0", "0000:db:00.0", LinkKind::sys},
      {"hgx-2socket", "00000000:18:00.0", "0000:2A:00.0", LinkKind::pix},  // NVML spelling
      {"workstation", "0000:01:00.0", "0000:21:00.0", LinkKind::phb},
      {"workstation", "0000:01:00.0", "0000:01:00.1", LinkKind::pix},  // GPU and its audio
      {"broken", "0000:01:00.0", "0000:02:00.0", LinkKind::phb},       // NUMA unknown, not needed
  };
  for (const auto& c : cases) {
    const auto link = pcie_path(fixture_root(c.tree), c.a, c.b);
    ASSERT_TRUE(link) << c.tree << " " << c.a << " " << c.b << ": " << link.reason();
    EXPECT_EQ(link->kind, c.kind) << c.tree << " " << c.a << " " << c.b << ": got "
                                  << core::to_string(*link);
    const auto reverse = pcie_path(fixture_root(c.tree), c.b, c.a);
    ASSERT_TRUE(reverse);
    EXPECT_EQ(reverse->kind, c.kind) << "not symmetric: " << c.a << " " << c.b;
  }
}

TEST(PciePath, DevicesNotFoundAreAbsent) {
  const auto missing = pcie_path(fixture_root("hgx-2socket"), "0000:18:00.0", "0000:77:00.0");
  EXPECT_FALSE(missing);
  EXPECT_NE(missing.reason().find("0000:77:00.0 not found"), std::string::npos);
  EXPECT_FALSE(pcie_path(fixture_root("broken"), "0000:01:00.0", "0000:03:00.0"));  // dangling
  EXPECT_FALSE(pcie_path(testing::missing_root(), "0000:18:00.0", "0000:18:00.0"));
}

const std::string kRp = "/sys/devices/pci0000:00/0000:00:01.0";

TEST(ClassifyPciePath, DirectlyUnderOneBridgeIsPix) {
  const auto link = classify_pcie_path(kRp + "/0000:01:00.0", kRp + "/0000:01:00.1", 0, 0, 1);
  EXPECT_EQ(link.value_or(core::Link{}).kind, LinkKind::pix);
}

TEST(ClassifyPciePath, BridgeAndDeviceBelowIt) {
  const auto sw = kRp + "/0000:01:00.0";
  EXPECT_EQ(classify_pcie_path(sw, sw + "/0000:02:00.0/0000:03:00.0", 0, 0, 1)->kind, LinkKind::pix);
  EXPECT_EQ(classify_pcie_path(kRp, sw + "/0000:02:00.0/0000:03:00.0", 0, 0, 1)->kind, LinkKind::pxb);
}

TEST(ClassifyPciePath, AcrossRootComplexesNeedsNuma) {
  const std::string a = "/sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0";
  const std::string b = "/sys/devices/pci0000:80/0000:80:01.0/0000:81:00.0";
  const core::Reading<int> unknown = core::Reading<int>::absent("numa_node is -1");
  EXPECT_EQ(classify_pcie_path(a, b, 0, 0, 2)->kind, LinkKind::node);
  EXPECT_EQ(classify_pcie_path(a, b, 0, 1, 2)->kind, LinkKind::sys);
  EXPECT_EQ(classify_pcie_path(a, b, unknown, unknown, 1)->kind, LinkKind::node);  // one node only
  const auto guess = classify_pcie_path(a, b, 0, unknown, 2);
  EXPECT_FALSE(guess);
  EXPECT_NE(guess.reason().find("numa_node is -1"), std::string::npos);
}

TEST(ClassifyPciePath, PathsOutsideThePciTreeAreAbsent) {
  EXPECT_FALSE(classify_pcie_path("/sys/devices/virtual/net/lo", kRp + "/0000:01:00.0", 0, 0, 1));
  EXPECT_FALSE(classify_pcie_path("/proc/1", kRp + "/0000:01:00.0", 0, 0, 1));
  EXPECT_FALSE(classify_pcie_path("/sys/devices/pci0000:00", kRp + "/0000:01:00.0", 0, 0, 1));
}

}  // namespace
}  // namespace gpuvet::sysfs
