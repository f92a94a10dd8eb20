// Reads one GPU's fields through NVML (everything but NVLink ports, see nvml_nvlink_reader.cpp).
#include "backends/nvml/nvml_gpu_reader.hpp"

#include <fmt/format.h>

#include "backends/nvml/nvml_convert.hpp"

namespace gpuvet::nvml {

namespace {

using StringGetter = nvmlReturn_t (*)(nvmlDevice_t, char*, unsigned int);

constexpr unsigned kCpuMaskWords = 64;   // 4096 CPUs
constexpr unsigned kNodeMaskWords = 4;   // 256 NUMA nodes
constexpr unsigned long long kBytesPerMib = 1024ULL * 1024ULL;

core::Reading<std::string> read_string(DeviceReader& r, Symbol symbol, StringGetter getter, unsigned size) {
  auto raw = r.query<std::string>(symbol, [&](std::string& out) {
    std::vector<char> buffer(size, '\0');
    const nvmlReturn_t code = getter(r.device(), buffer.data(), size);
    out = bounded_string(buffer.data(), buffer.size());
    return code;
  });
  if (raw.known() && raw.value().empty()) return core::Reading<std::string>::absent("NVML returned an empty string");
  return raw;
}

core::Reading<int> read_uint(DeviceReader& r, Symbol symbol, nvmlReturn_t (*getter)(nvmlDevice_t, unsigned int*)) {
  const auto raw = r.query<unsigned int>(symbol, [&](unsigned int& v) { return getter(r.device(), &v); });
  return map_reading<int>(raw, [](unsigned int v) { return static_cast<int>(v); });
}

core::Reading<std::uint64_t> read_memory_total_mib(DeviceReader& r) {
  const Api& api = r.api();
  std::string v2_reason;
  if (auto why = r.unavailable(Symbol::device_get_memory_info_v2)) {
    v2_reason = *why;
  } else {
    nvmlMemory_v2_t memory{};
    memory.version = kMemoryV2Version;
    const nvmlReturn_t code = api.device_get_memory_info_v2(r.device(), &memory);
    if (code == kSuccess) return memory.total / kBytesPerMib;
    v2_reason = r.failure(Symbol::device_get_memory_info_v2, code);
    if (r.lost()) return core::Reading<std::uint64_t>::absent(v2_reason);
  }
  // v1 fallback for drivers before R510 (or when v2 rejects the struct version).
  const auto v1 = r.query<nvmlMemory_t>(Symbol::device_get_memory_info,
                                        [&](nvmlMemory_t& m) { return api.device_get_memory_info(r.device(), &m); });
  if (v1.known()) return v1.value().total / kBytesPerMib;
  if (v1.reason() == v2_reason) return core::Reading<std::uint64_t>::absent(v2_reason);
  return core::Reading<std::uint64_t>::absent(v1.reason() + "; " + v2_reason);
}

core::Reading<std::string> read_bus_id(DeviceReader& r) {
  const auto pci = r.query<nvmlPciInfo_t>(Symbol::device_get_pci_info, [&](nvmlPciInfo_t& p) {
    return r.api().device_get_pci_info(r.device(), &p);
  });
  if (!pci.known()) return core::Reading<std::string>::absent(pci.reason());
  // Only the _v3 entry point fills the 32-byte busId; older ones fill busIdLegacy at offset 0.
  const bool v3 = r.library().resolved_name(Symbol::device_get_pci_info).ends_with("_v3");
  std::string bus_id = v3 ? bounded_string(pci->busId, sizeof pci->busId) : "";
  if (bus_id.empty()) bus_id = bounded_string(pci->busIdLegacy, sizeof pci->busIdLegacy);
  if (bus_id.empty()) return core::Reading<std::string>::absent("NVML returned an empty PCI bus id");
  return core::normalize_pci_bus_id(bus_id);
}

void read_affinity(DeviceReader& r, core::Gpu& gpu) {
  const Api& api = r.api();
  const auto nodes = r.query<std::vector<unsigned long>>(Symbol::device_get_memory_affinity, [&](auto& words) {
    words.assign(kNodeMaskWords, 0);
    return api.device_get_memory_affinity(r.device(), kNodeMaskWords, words.data(), kAffinityScopeNode);
  });
  if (!nodes.known()) {
    gpu.numa_node = core::Reading<int>::absent(nodes.reason());
  } else if (auto node = lowest_set_bit(nodes.value())) {
    gpu.numa_node = *node;
  } else {
    gpu.numa_node = core::Reading<int>::absent("NVML reported an empty NUMA node set");
  }
  const auto cpus = r.query<std::vector<unsigned long>>(Symbol::device_get_cpu_affinity, [&](auto& words) {
    words.assign(kCpuMaskWords, 0);
    return api.device_get_cpu_affinity(r.device(), kCpuMaskWords, words.data());
  });
  if (!cpus.known()) {
    gpu.cpu_affinity = core::Reading<std::string>::absent(cpus.reason());
  } else if (auto list = cpulist_from_mask(cpus.value()); !list.empty()) {
    gpu.cpu_affinity = list;
  } else {
    gpu.cpu_affinity = core::Reading<std::string>::absent("NVML reported an empty CPU set");
  }
}

core::Reading<double> read_power_limit_w(DeviceReader& r) {
  // The enforced limit includes out-of-band limiters; the management limit is the fallback.
  auto enforced = read_uint(r, Symbol::device_get_enforced_power_limit, r.api().device_get_enforced_power_limit);
  if (!enforced.known() && !r.lost()) {
    auto managed = read_uint(r, Symbol::device_get_power_management_limit, r.api().device_get_power_management_limit);
    if (managed.known()) enforced = managed;
  }
  return map_reading<double>(enforced, [](int mw) { return mw / 1000.0; });
}

void read_modes(DeviceReader& r, core::Gpu& gpu) {
  const Api& api = r.api();
  const auto clock = [&](nvmlClockType_t type) {
    const auto mhz = r.query<unsigned int>(Symbol::device_get_max_clock_info,
                                           [&](unsigned int& v) { return api.device_get_max_clock_info(r.device(), type, &v); });
    return map_reading<int>(mhz, [](unsigned int v) { return static_cast<int>(v); });
  };
  gpu.max_sm_clock_mhz = clock(kClockSm);
  gpu.max_mem_clock_mhz = clock(kClockMem);
  const auto ecc = r.query<nvmlEnableState_t>(Symbol::device_get_ecc_mode, [&](nvmlEnableState_t& current) {
    nvmlEnableState_t pending = 0;
    return api.device_get_ecc_mode(r.device(), &current, &pending);
  });
  gpu.ecc_enabled = map_reading<bool>(ecc, [](nvmlEnableState_t s) { return s == kFeatureEnabled; });
  const auto mig = r.query<unsigned int>(Symbol::device_get_mig_mode, [&](unsigned int& current) {
    unsigned int pending = 0;
    return api.device_get_mig_mode(r.device(), &current, &pending);
  });
  gpu.mig_enabled = map_reading<bool>(mig, [](unsigned int m) { return m == 1; });
  const auto virt = r.query<nvmlGpuVirtualizationMode_t>(Symbol::device_get_virtualization_mode, [&](auto& mode) {
    return api.device_get_virtualization_mode(r.device(), &mode);
  });
  if (virt.known()) {
    auto name = virtualization_mode_name(virt.value());
    gpu.virtualization_mode = name ? core::Reading<std::string>(*name)
                                   : core::Reading<std::string>::absent(fmt::format("unknown virtualization mode {}", *virt));
  } else {
    gpu.virtualization_mode = core::Reading<std::string>::absent(virt.reason());
  }
  gpu.fabric_state = core::Reading<std::string>::absent("not read by the NVML backend (GPU fabric info not declared)");
  const auto pstate = r.query<nvmlPstates_t>(Symbol::device_get_performance_state, [&](nvmlPstates_t& p) {
    return api.device_get_performance_state(r.device(), &p);
  });
  if (pstate.known() && (pstate.value() < 0 || pstate.value() > 15)) {
    gpu.performance_state = core::Reading<std::string>::absent(fmt::format("NVML reported performance state {}", *pstate));
  } else {
    gpu.performance_state = map_reading<std::string>(pstate, [](nvmlPstates_t p) { return fmt::format("P{}", p); });
  }
  const auto reasons = r.query<unsigned long long>(Symbol::device_get_current_clocks_event_reasons, [&](auto& mask) {
    return api.device_get_current_clocks_event_reasons(r.device(), &mask);
  });
  gpu.idle = map_reading<bool>(reasons, [](unsigned long long m) { return (m & kReasonGpuIdle) != 0; });
  gpu.clocks_event_reasons = map_reading<std::vector<std::string>>(reasons, clocks_event_reason_names);
}

core::Reading<int> retired_page_count(DeviceReader& r, nvmlPageRetirementCause_t cause) {
  const auto count = r.query<unsigned int>(Symbol::device_get_retired_pages, [&](unsigned int& n) {
    n = 0;  // size query: no address buffer
    const nvmlReturn_t code = r.api().device_get_retired_pages(r.device(), cause, &n, nullptr);
    return code == kErrorInsufficientSize ? kSuccess : code;
  });
  return map_reading<int>(count, [](unsigned int n) { return static_cast<int>(n); });
}

void read_memory_health(DeviceReader& r, core::MemoryHealth& health) {
  struct Rows {
    unsigned int corrected, uncorrected, pending, failure;
  };
  const auto rows = r.query<Rows>(Symbol::device_get_remapped_rows, [&](Rows& v) {
    return r.api().device_get_remapped_rows(r.device(), &v.corrected, &v.uncorrected, &v.pending, &v.failure);
  });
  health.remapped_rows_correctable = map_reading<int>(rows, [](const Rows& v) { return static_cast<int>(v.corrected); });
  health.remapped_rows_uncorrectable = map_reading<int>(rows, [](const Rows& v) { return static_cast<int>(v.uncorrected); });
  health.remap_pending = map_reading<bool>(rows, [](const Rows& v) { return v.pending != 0; });
  health.remap_failure = map_reading<bool>(rows, [](const Rows& v) { return v.failure != 0; });
  health.retired_pages_sbe = retired_page_count(r, kRetireMultipleSingleBit);
  health.retired_pages_dbe = retired_page_count(r, kRetireDoubleBit);
  const auto pending = r.query<nvmlEnableState_t>(Symbol::device_get_retired_pages_pending_status, [&](auto& s) {
    return r.api().device_get_retired_pages_pending_status(r.device(), &s);
  });
  health.retired_pages_pending = map_reading<bool>(pending, [](nvmlEnableState_t s) { return s == kFeatureEnabled; });
}

}  // namespace

core::Gpu read_gpu(DeviceReader& r) {
  const Api& api = r.api();
  core::Gpu gpu;
  gpu.index = r.index();
  gpu.name = read_string(r, Symbol::device_get_name, api.device_get_name, kDeviceNameV2BufferSize);
  gpu.uuid = read_string(r, Symbol::device_get_uuid, api.device_get_uuid, kDeviceUuidV2BufferSize);
  gpu.pci_bus_id = read_bus_id(r);
  gpu.serial = read_string(r, Symbol::device_get_serial, api.device_get_serial, kDeviceSerialBufferSize);
  gpu.board_part_number =
      read_string(r, Symbol::device_get_board_part_number, api.device_get_board_part_number, kDevicePartNumberBufferSize);
  gpu.vbios = read_string(r, Symbol::device_get_vbios_version, api.device_get_vbios_version, kDeviceVbiosVersionBufferSize);
  gpu.inforom_image = read_string(r, Symbol::device_get_inforom_image_version, api.device_get_inforom_image_version,
                                  kDeviceInforomVersionBufferSize);
  const auto arch = r.query<nvmlDeviceArchitecture_t>(Symbol::device_get_architecture, [&](auto& a) {
    return api.device_get_architecture(r.device(), &a);
  });
  if (arch.known()) {
    auto name = architecture_name(arch.value());
    gpu.architecture = name ? core::Reading<std::string>(*name)
                            : core::Reading<std::string>::absent(fmt::format("unknown architecture code {}", *arch));
  } else {
    gpu.architecture = core::Reading<std::string>::absent(arch.reason());
  }
  const auto cc = r.query<std::pair<int, int>>(Symbol::device_get_cuda_compute_capability, [&](auto& mm) {
    return api.device_get_cuda_compute_capability(r.device(), &mm.first, &mm.second);
  });
  gpu.compute_capability = map_reading<std::string>(cc, [](const auto& mm) { return fmt::format("{}.{}", mm.first, mm.second); });
  gpu.memory_total_mib = read_memory_total_mib(r);
  gpu.pcie.gen_current = read_uint(r, Symbol::device_get_curr_pcie_link_generation, api.device_get_curr_pcie_link_generation);
  gpu.pcie.gen_max = read_uint(r, Symbol::device_get_max_pcie_link_generation, api.device_get_max_pcie_link_generation);
  gpu.pcie.width_current = read_uint(r, Symbol::device_get_curr_pcie_link_width, api.device_get_curr_pcie_link_width);
  gpu.pcie.width_max = read_uint(r, Symbol::device_get_max_pcie_link_width, api.device_get_max_pcie_link_width);
  read_affinity(r, gpu);
  gpu.power_limit_w = read_power_limit_w(r);
  read_modes(r, gpu);
  read_memory_health(r, gpu.memory_health);
  gpu.nvlinks = read_nvlinks(r, gpu.compute_capability);
  return gpu;
}

}  // namespace gpuvet::nvml
