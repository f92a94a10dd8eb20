// The sysfs backend's public face, in one include: GPUs on the PCI bus, RDMA NICs, NUMA nodes,
// PCIe paths, and enrich_machine (what the live probe calls after NVML).
#pragma once

#include "backends/sysfs/enrich.hpp"       // IWYU pragma: export
#include "backends/sysfs/infiniband.hpp"   // IWYU pragma: export
#include "backends/sysfs/numa.hpp"         // IWYU pragma: export
#include "backends/sysfs/pci_devices.hpp"  // IWYU pragma: export
#include "backends/sysfs/pcie_path.hpp"    // IWYU pragma: export
