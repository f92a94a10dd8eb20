#include "core/machine.hpp"

#include <gtest/gtest.h>

using gpuvet::core::normalize_pci_bus_id;

TEST(PciBusId, NormalisesNvidiaSmiAndSysfsForms) {
  EXPECT_EQ(normalize_pci_bus_id("00000000:18:00.0"), "0000:18:00.0");
  EXPECT_EQ(normalize_pci_bus_id("0000:AD:00.0"), "0000:ad:00.0");
  EXPECT_EQ(normalize_pci_bus_id("81:00.0"), "0000:81:00.0");
  EXPECT_EQ(normalize_pci_bus_id("not a bus id"), "not a bus id");
}
