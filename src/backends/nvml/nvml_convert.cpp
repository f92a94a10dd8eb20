// NVML value -> model vocabulary mappings (see nvml_convert.hpp and the fact sheet for sources).
#include "backends/nvml/nvml_convert.hpp"

#include <cstring>
#include <fmt/format.h>

namespace gpuvet::nvml {

namespace {
constexpr int kBitsPerWord = 64;

bool bit_set(const std::vector<unsigned long>& words, int bit) {
  const auto word = static_cast<size_t>(bit / kBitsPerWord);
  return word < words.size() && ((words[word] >> (bit % kBitsPerWord)) & 1UL) != 0;
}
}  // namespace

std::string cpulist_from_mask(const std::vector<unsigned long>& words) {
  std::string out;
  const int total = static_cast<int>(words.size()) * kBitsPerWord;
  for (int bit = 0; bit < total;) {
    if (!bit_set(words, bit)) {
      ++bit;
      continue;
    }
    int end = bit;
    while (end + 1 < total && bit_set(words, end + 1)) ++end;
    if (!out.empty()) out += ',';
    out += end == bit ? fmt::format("{}", bit) : fmt::format("{}-{}", bit, end);
    bit = end + 1;
  }
  return out;
}

std::optional<int> lowest_set_bit(const std::vector<unsigned long>& words) {
  const int total = static_cast<int>(words.size()) * kBitsPerWord;
  for (int bit = 0; bit < total; ++bit) {
    if (bit_set(words, bit)) return bit;
  }
  return std::nullopt;
}

std::optional<int> nvlink_generation_from_code(unsigned int code) {
  // nvmlNvlinkVersion_t: 1_0 = 1, 2_0 = 2, 2_2 = 3, 3_0 = 4, 3_1 = 5, 4_0 = 6, 5_0 = 7, 6_0 = 8.
  // hwloc issue #658 and nvtop PR #469 report A100/RTX 3090 returning 5, i.e. NVLink 3.
  switch (code) {
    case 1: return 1;
    case 2:
    case 3: return 2;
    case 4:
    case 5: return 3;
    case 6: return 4;
    case 7: return 5;
    case 8: return 6;
    default: return std::nullopt;
  }
}

std::optional<std::string> architecture_name(nvmlDeviceArchitecture_t arch) {
  switch (arch) {
    case kArchKepler: return "Kepler";
    case kArchMaxwell: return "Maxwell";
    case kArchPascal: return "Pascal";
    case kArchVolta: return "Volta";
    case kArchTuring: return "Turing";
    case kArchAmpere: return "Ampere";
    case kArchAda: return "Ada Lovelace";
    case kArchHopper: return "Hopper";
    case kArchBlackwell: return "Blackwell";
    case kArchRubin: return "Rubin";
    default: return std::nullopt;
  }
}

std::optional<std::string> virtualization_mode_name(nvmlGpuVirtualizationMode_t mode) {
  switch (mode) {
    case kVirtNone: return "None";
    case kVirtPassthrough: return "Pass-Through";
    case kVirtVgpu: return "VGPU";
    case kVirtHostVgpu: return "Host VGPU";
    case kVirtHostVsga: return "Host VSGA";
    default: return std::nullopt;
  }
}

std::vector<std::string> clocks_event_reason_names(std::uint64_t mask) {
  struct Named {
    std::uint64_t bit;
    const char* name;
  };
  // nvidia-smi -q order.
  static constexpr Named kReasons[] = {
      {kReasonApplicationsClocks, "Applications Clocks Setting"},
      {kReasonSwPowerCap, "SW Power Cap"},
      {kReasonHwSlowdown, "HW Slowdown"},
      {kReasonHwThermalSlowdown, "HW Thermal Slowdown"},
      {kReasonHwPowerBrakeSlowdown, "HW Power Brake Slowdown"},
      {kReasonSyncBoost, "Sync Boost"},
      {kReasonSwThermalSlowdown, "SW Thermal Slowdown"},
      {kReasonDisplayClock, "Display Clock Setting"},
  };
  std::vector<std::string> names;
  for (const auto& reason : kReasons) {
    if ((mask & reason.bit) != 0) names.emplace_back(reason.name);
  }
  return names;
}

std::optional<core::LinkKind> link_kind_from_topology(nvmlGpuTopologyLevel_t level) {
  switch (level) {
    case kTopologyInternal:
    case kTopologySingle: return core::LinkKind::pix;
    case kTopologyMultiple: return core::LinkKind::pxb;
    case kTopologyHostbridge: return core::LinkKind::phb;
    case kTopologyNode: return core::LinkKind::node;
    case kTopologySystem: return core::LinkKind::sys;
    default: return std::nullopt;
  }
}

std::string cuda_version_string(int version) {
  return fmt::format("{}.{}", version / 1000, (version % 1000) / 10);
}

std::string bounded_string(const char* buffer, std::size_t size) {
  const void* nul = std::memchr(buffer, '\0', size);
  return std::string(buffer, nul == nullptr ? size : static_cast<std::size_t>(static_cast<const char*>(nul) - buffer));
}

}  // namespace gpuvet::nvml
