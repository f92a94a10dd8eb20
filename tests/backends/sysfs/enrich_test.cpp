// enrich_machine: fills what the other source left absent, never overwrites what it knew.
#include "backends/sysfs/enrich.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sysfs_fixture.hpp"

namespace gpuvet::sysfs {
namespace {

using core::LinkKind;
using testing::fixture_root;

// A machine as NVML would hand it over when it can tell nothing about placement: bus ids in
// NVML's spelling, everything else absent.
core::Machine nvml_like(const std::vector<std::string>& bus_ids) {
  core::Machine machine;
  machine.source = "live (NVML)";
  for (size_t i = 0; i < bus_ids.size(); ++i) {
    core::Gpu gpu;
    gpu.index = static_cast<int>(i);
    gpu.name = std::string("NVIDIA H100 80GB HBM3");
    gpu.pci_bus_id = bus_ids[i];
    gpu.numa_node = core::Reading<int>::absent("NVML: not supported");
    machine.gpus.push_back(gpu);
  }
  return machine;
}

const std::vector<std::string> kHgxBusIds{"00000000:18:00.0", "00000000:2A:00.0", "00000000:3A:00.0",
                                          "00000000:5D:00.0", "00000000:9A:00.0", "00000000:AB:00.0",
                                          "00000000:BA:00.0", "00000000:DB:00.0"};

std::vector<LinkKind> kinds(const std::vector<core::Link>& links) {
  std::vector<LinkKind> out;
  for (const auto& link : links) out.push_back(link.kind);
  return out;
}

TEST(EnrichMachine, FillsPlacementMatrixAndNics) {
  auto machine = nvml_like(kHgxBusIds);
  enrich_machine(fixture_root("hgx-2socket"), machine);

  EXPECT_EQ(machine.gpus[0].numa_node.value_or(-1), 0);
  EXPECT_EQ(machine.gpus[7].numa_node.value_or(-1), 1);
  EXPECT_EQ(machine.gpus[7].cpu_affinity.value_or("?"), "56-111,168-223");
  EXPECT_EQ(machine.gpus[3].pcie.gen_current.value_or(0), 4);
  EXPECT_EQ(machine.gpus[3].pcie.width_current.value_or(0), 8);
  EXPECT_EQ(machine.gpus[3].pcie.gen_max.value_or(0), 5);
  EXPECT_EQ(machine.gpus[0].name.value_or("?"), "NVIDIA H100 80GB HBM3");  // untouched

  ASSERT_TRUE(machine.links) << machine.links.reason();
  const auto& m = *machine.links;
  ASSERT_EQ(m.size(), 8);
  EXPECT_EQ(m.at(0, 0).kind, LinkKind::self);
  EXPECT_EQ(m.at(0, 1).kind, LinkKind::pix);
  EXPECT_EQ(m.at(0, 2).kind, LinkKind::node);
  EXPECT_EQ(m.at(2, 3).kind, LinkKind::pix);
  EXPECT_EQ(m.at(0, 4).kind, LinkKind::sys);
  EXPECT_EQ(m.at(4, 5).kind, LinkKind::pix);
  EXPECT_EQ(m.at(4, 6).kind, LinkKind::pxb);
  EXPECT_EQ(m.at(7, 5).kind, LinkKind::pxb);

  ASSERT_TRUE(machine.nics) << machine.nics.reason();
  ASSERT_EQ(machine.nics->size(), 4u);
  const auto& nic0 = (*machine.nics)[0].gpu_proximity;
  ASSERT_TRUE(nic0) << nic0.reason();
  using K = LinkKind;
  EXPECT_EQ(kinds(*nic0), (std::vector<K>{K::pix, K::pix, K::node, K::node, K::sys, K::sys, K::sys, K::sys}));
  const auto& nic2 = (*machine.nics)[2].gpu_proximity;
  ASSERT_TRUE(nic2);
  EXPECT_EQ(kinds(*nic2), (std::vector<K>{K::sys, K::sys, K::sys, K::sys, K::pix, K::pix, K::pxb, K::pxb}));

  ASSERT_TRUE(machine.numa_nodes);
  EXPECT_EQ(machine.numa_nodes->size(), 2u);
  EXPECT_EQ(machine.attached_gpus.value_or(0), 8);
  EXPECT_TRUE(machine.notes.empty());
}

TEST(EnrichMachine, NeverOverwritesKnownReadings) {
  auto machine = nvml_like(kHgxBusIds);
  core::LinkMatrix nvswitch(8);
  for (int a = 0; a < 8; ++a) {
    for (int b = 0; b < 8; ++b) {
      if (a != b) nvswitch.set(a, b, core::Link{LinkKind::nvlink, 18});
    }
  }
  machine.links = nvswitch;
  machine.gpus[0].numa_node = 3;
  machine.gpus[0].pcie.gen_current = 1;  // NVML saw the idle link
  machine.attached_gpus = 9;
  enrich_machine(fixture_root("hgx-2socket"), machine);

  ASSERT_TRUE(machine.links);
  EXPECT_EQ(*machine.links, nvswitch);
  EXPECT_EQ(machine.links->at(0, 4), (core::Link{LinkKind::nvlink, 18}));
  EXPECT_EQ(machine.gpus[0].numa_node.value_or(-1), 3);
  EXPECT_EQ(machine.gpus[0].pcie.gen_current.value_or(0), 1);
  EXPECT_EQ(machine.gpus[0].pcie.gen_max.value_or(0), 5);  // was absent: filled
  EXPECT_EQ(machine.attached_gpus.value_or(0), 9);
  ASSERT_TRUE(machine.nics);
  EXPECT_TRUE((*machine.nics)[0].gpu_proximity);
}

TEST(EnrichMachine, NotesGpusOnTheBusThatTheSourceLacks) {
  auto bus_ids = kHgxBusIds;
  bus_ids.erase(bus_ids.begin() + 3);  // NVML lost 5d:00.0
  auto machine = nvml_like(bus_ids);
  enrich_machine(fixture_root("hgx-2socket"), machine);
  ASSERT_EQ(machine.notes.size(), 1u);
  EXPECT_NE(machine.notes[0].find("0000:5d:00.0"), std::string::npos) << machine.notes[0];
  EXPECT_EQ(machine.attached_gpus.value_or(0), 8);
  ASSERT_TRUE(machine.links);
  EXPECT_EQ(machine.links->size(), 7);
  EXPECT_EQ(machine.links->at(2, 3).kind, LinkKind::sys);  // 3a:00.0 to 9a:00.0
  EXPECT_EQ((*machine.nics)[0].gpu_proximity->size(), 7u);
}

TEST(EnrichMachine, GpuWithoutBusIdLeavesTheMatrixAbsentWithTheReason) {
  auto machine = nvml_like({"00000000:18:00.0", "00000000:2A:00.0"});
  machine.gpus[1].pci_bus_id = core::Reading<std::string>::absent("NVML: unknown error");
  enrich_machine(fixture_root("hgx-2socket"), machine);
  EXPECT_FALSE(machine.links);
  EXPECT_NE(machine.links.reason().find("GPU1 has no PCI bus id"), std::string::npos)
      << machine.links.reason();
  EXPECT_FALSE((*machine.nics)[0].gpu_proximity);
  EXPECT_EQ(machine.gpus[0].numa_node.value_or(-1), 0);
}

TEST(EnrichMachine, BrokenTreeKeepsTheSourcesReasons) {
  auto machine = nvml_like({"00000000:01:00.0", "00000000:02:00.0"});
  enrich_machine(fixture_root("broken"), machine);
  EXPECT_FALSE(machine.gpus[0].numa_node);
  EXPECT_EQ(machine.gpus[0].numa_node.reason(), "NVML: not supported");
  EXPECT_FALSE(machine.gpus[1].pcie.gen_max);
  EXPECT_EQ(machine.gpus[1].pcie.width_max.value_or(0), 16);
  ASSERT_TRUE(machine.links) << machine.links.reason();
  EXPECT_EQ(machine.links->at(0, 1).kind, LinkKind::phb);
  ASSERT_TRUE(machine.nics);
  EXPECT_FALSE((*machine.nics)[0].gpu_proximity);
  EXPECT_EQ(machine.attached_gpus.value_or(0), 2);
  EXPECT_TRUE(machine.notes.empty());
}

TEST(EnrichMachine, MissingRootChangesNothingButReasons) {
  auto machine = nvml_like(kHgxBusIds);
  enrich_machine(testing::missing_root(), machine);
  EXPECT_FALSE(machine.gpus[0].numa_node);
  EXPECT_FALSE(machine.gpus[0].pcie.gen_current);
  EXPECT_FALSE(machine.links);
  EXPECT_NE(machine.links.reason().find("not found in sysfs"), std::string::npos) << machine.links.reason();
  EXPECT_FALSE(machine.nics);
  EXPECT_FALSE(machine.numa_nodes);
  EXPECT_FALSE(machine.attached_gpus);
  EXPECT_TRUE(machine.notes.empty());
}

TEST(EnrichMachine, EmptyMachineOnAWorkstationCountsItsGpus) {
  core::Machine machine;
  machine.source = "live (NVML missing)";
  enrich_machine(fixture_root("workstation"), machine);
  EXPECT_EQ(machine.attached_gpus.value_or(0), 2);
  EXPECT_EQ(machine.notes.size(), 2u);
  EXPECT_FALSE(machine.links);
  EXPECT_FALSE(machine.nics);
  ASSERT_TRUE(machine.numa_nodes);
}

}  // namespace
}  // namespace gpuvet::sysfs
