// Device test: the NVML backend against the machine's real libnvidia-ml.so.1. Built always, run
// only with -DGPUVET_DEVICE_TESTS=ON (ctest label "device") on a machine with an NVIDIA GPU.
#include <gtest/gtest.h>

#include "backends/nvml/nvml_reader.hpp"

namespace gpuvet::nvml {
namespace {

TEST(NvmlLive, ReadsTheRealDriver) {
  const auto machine = read_machine(default_library_name());
  ASSERT_TRUE(machine.ok()) << machine.error().message;
  const auto& m = machine.value();
  ASSERT_FALSE(m.gpus.empty());
  EXPECT_TRUE(m.driver_version.known()) << m.driver_version.reason();
  EXPECT_EQ(m.attached_gpus.value_or(-1), static_cast<int>(m.gpus.size()));
  for (const auto& g : m.gpus) {
    SCOPED_TRACE("GPU " + std::to_string(g.index));
    ASSERT_TRUE(g.name.known()) << g.name.reason();
    ASSERT_TRUE(g.uuid.known()) << g.uuid.reason();
    EXPECT_EQ(g.uuid->rfind("GPU-", 0), 0u) << *g.uuid;
    ASSERT_TRUE(g.pci_bus_id.known()) << g.pci_bus_id.reason();
    EXPECT_EQ(*g.pci_bus_id, core::normalize_pci_bus_id(*g.pci_bus_id));
    EXPECT_EQ(g.pci_bus_id->size(), 12u) << *g.pci_bus_id;
    ASSERT_TRUE(g.memory_total_mib.known()) << g.memory_total_mib.reason();
    EXPECT_GT(*g.memory_total_mib, 1024u);
    EXPECT_TRUE(g.architecture.known()) << g.architecture.reason();
    EXPECT_TRUE(g.compute_capability.known()) << g.compute_capability.reason();
    EXPECT_TRUE(g.pcie.gen_max.known()) << g.pcie.gen_max.reason();
    EXPECT_TRUE(g.power_limit_w.known()) << g.power_limit_w.reason();
    EXPECT_GT(g.power_limit_w.value_or(0.0), 10.0);
    EXPECT_TRUE(g.nvlinks.known() || !g.nvlinks.reason().empty());
  }
  ASSERT_TRUE(m.links.known()) << m.links.reason();
  EXPECT_EQ(m.links->size(), static_cast<int>(m.gpus.size()));
  EXPECT_TRUE(m.notes.empty());
}

}  // namespace
}  // namespace gpuvet::nvml
