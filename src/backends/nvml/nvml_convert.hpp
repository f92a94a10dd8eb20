// Pure conversions from NVML's raw values to the machine model's vocabulary (nvidia-smi's words).
// No library calls here, so each mapping is unit-tested on its own.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "backends/nvml/nvml_types.hpp"
#include "core/topology.hpp"

namespace gpuvet::nvml {

// Bitmask words (64 CPUs per word, as nvmlDeviceGetCpuAffinity fills them) -> "0-31,64-95".
// Empty string when no bit is set.
std::string cpulist_from_mask(const std::vector<unsigned long>& words);
// Lowest set bit (NUMA node from nvmlDeviceGetMemoryAffinity), or nullopt when none is set.
std::optional<int> lowest_set_bit(const std::vector<unsigned long>& words);

// nvmlNvlinkVersion_t code -> marketing NVLink generation (4 = "3.0" -> 3). nullopt for 0/unknown.
std::optional<int> nvlink_generation_from_code(unsigned int code);

// nvmlDeviceArchitecture_t -> "Hopper", "Ada Lovelace", ...; nullopt when unknown.
std::optional<std::string> architecture_name(nvmlDeviceArchitecture_t arch);

// nvmlGpuVirtualizationMode_t -> "None", "Pass-Through", "VGPU", "Host VGPU", "Host VSGA".
std::optional<std::string> virtualization_mode_name(nvmlGpuVirtualizationMode_t mode);

// Active clocks-event reasons except idle, named and ordered as nvidia-smi -q prints them.
std::vector<std::string> clocks_event_reason_names(std::uint64_t mask);

// nvmlGpuTopologyLevel_t -> topo -m PCIe path (INTERNAL/SINGLE -> PIX, ..., SYSTEM -> SYS).
std::optional<core::LinkKind> link_kind_from_topology(nvmlGpuTopologyLevel_t level);

// cuDriverGetVersion encoding (1000 * major + 10 * minor) -> "12.7".
std::string cuda_version_string(int version);

// A C string from a fixed buffer that may lack its NUL.
std::string bounded_string(const char* buffer, std::size_t size);

}  // namespace gpuvet::nvml
