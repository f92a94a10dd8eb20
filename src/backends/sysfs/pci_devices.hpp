// NVIDIA GPUs as the PCI bus shows them in sysfs: the fallback inventory when NVML is missing,
// and the count of attached GPUs that NVML may not see. Reads /sys/bus/pci/devices only.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/machine.hpp"
#include "platform/fs_root.hpp"

namespace gpuvet::sysfs {

inline constexpr const char* kPciDevicesDir = "/sys/bus/pci/devices";
inline constexpr const char* kNotInSysfs = "not visible in sysfs";

// True when /sys/bus/pci/devices exists under the root (an empty list then means "no devices",
// not "could not look").
bool pci_bus_visible(const platform::FsRoot& root);

// Canonical sysfs path ("/sys/devices/pci0000:17/0000:17:01.0/0000:18:00.0") of a PCI function
// given in any bus-id spelling; nullopt when it is not on the bus or its link dangles.
std::optional<std::string> pci_device_path(const platform::FsRoot& root, const std::string& bus_id);

// What sysfs knows about one PCI function as a core::Gpu (index 0): pci_bus_id, numa_node,
// cpu_affinity, PCIe gen/width; every other field absent "not visible in sysfs". Does not check
// the class: enrich_machine uses it for GPUs that another source already identified.
// Note: GPUs lower their link speed when idle, so gen_current may read 1 on a healthy Gen5 link.
std::optional<core::Gpu> read_pci_gpu(const platform::FsRoot& root, const std::string& bus_id);

// NVIDIA GPUs (vendor 0x10de, class 0x0300xx VGA or 0x0302xx 3D controller) in bus order;
// index = position. Empty when there are none or when the PCI bus is not visible.
std::vector<core::Gpu> list_gpus(const platform::FsRoot& root);

}  // namespace gpuvet::sysfs
