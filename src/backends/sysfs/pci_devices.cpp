// Reads NVIDIA GPUs from /sys/bus/pci/devices; see pci_devices.hpp.
#include "backends/sysfs/pci_devices.hpp"

#include <algorithm>

#include "backends/sysfs/sysfs_values.hpp"

namespace gpuvet::sysfs {

namespace {

constexpr std::string_view kNvidiaVendor = "0x10de";

// Every field sysfs cannot tell, marked as such instead of the generic "not reported".
void mark_not_in_sysfs(core::Gpu& gpu) {
  const core::Absent absent{kNotInSysfs};
  gpu.name = gpu.uuid = gpu.serial = gpu.board_part_number = absent;
  gpu.vbios = gpu.inforom_image = gpu.architecture = gpu.compute_capability = absent;
  gpu.virtualization_mode = gpu.fabric_state = absent;
  gpu.memory_total_mib = absent;
  gpu.power_limit_w = absent;
  gpu.max_sm_clock_mhz = gpu.max_mem_clock_mhz = absent;
  gpu.ecc_enabled = gpu.mig_enabled = gpu.idle = absent;
  gpu.clocks_event_reasons = absent;
  gpu.nvlinks = absent;
  auto& health = gpu.memory_health;
  health.remapped_rows_correctable = health.remapped_rows_uncorrectable = absent;
  health.retired_pages_sbe = health.retired_pages_dbe = absent;
  health.remap_pending = health.remap_failure = health.retired_pages_pending = absent;
}

// VGA controller (0x0300xx) or 3D controller (0x0302xx); data-centre GPUs are 3D controllers.
bool is_gpu_class(std::string_view pci_class) {
  return pci_class.size() == 8 && (pci_class.substr(0, 6) == "0x0300" || pci_class.substr(0, 6) == "0x0302");
}

bool is_nvidia_gpu(const platform::FsRoot& root, const std::string& dir) {
  const auto vendor = root.read(dir + "/vendor");
  const auto pci_class = root.read(dir + "/class");
  return vendor && pci_class && trim(*vendor) == kNvidiaVendor && is_gpu_class(trim(*pci_class));
}

}  // namespace

bool pci_bus_visible(const platform::FsRoot& root) { return root.exists(kPciDevicesDir); }

std::optional<std::string> pci_device_path(const platform::FsRoot& root, const std::string& bus_id) {
  const auto normalised = core::normalize_pci_bus_id(bus_id);
  if (!is_pci_bus_id(normalised)) return std::nullopt;
  const std::string link = std::string(kPciDevicesDir) + "/" + normalised;
  if (!root.exists(link)) return std::nullopt;  // also false for a dangling symlink
  auto path = root.canonical(link);
  if (!path || path->rfind("/sys/devices/", 0) != 0) return std::nullopt;
  return path;
}

std::optional<core::Gpu> read_pci_gpu(const platform::FsRoot& root, const std::string& bus_id) {
  const auto dir = pci_device_path(root, bus_id);
  if (!dir) return std::nullopt;
  core::Gpu gpu;
  mark_not_in_sysfs(gpu);
  gpu.pci_bus_id = core::normalize_pci_bus_id(bus_id);
  gpu.numa_node = read_attribute<int>(root, *dir, "numa_node", parse_numa_node);
  gpu.cpu_affinity = read_attribute<std::string>(root, *dir, "local_cpulist", parse_cpulist);
  if (gpu.cpu_affinity && gpu.cpu_affinity->empty()) {
    gpu.cpu_affinity = core::Reading<std::string>::absent(*dir + "/local_cpulist is empty");
  }
  gpu.pcie.gen_current = read_attribute<int>(root, *dir, "current_link_speed", parse_link_speed_gen);
  gpu.pcie.gen_max = read_attribute<int>(root, *dir, "max_link_speed", parse_link_speed_gen);
  gpu.pcie.width_current = read_attribute<int>(root, *dir, "current_link_width", parse_link_width);
  gpu.pcie.width_max = read_attribute<int>(root, *dir, "max_link_width", parse_link_width);
  return gpu;
}

std::vector<core::Gpu> list_gpus(const platform::FsRoot& root) {
  std::vector<core::Gpu> gpus;
  for (const auto& name : root.list(kPciDevicesDir)) {
    if (!is_pci_bus_id(name)) continue;
    if (!is_nvidia_gpu(root, std::string(kPciDevicesDir) + "/" + name)) continue;
    if (auto gpu = read_pci_gpu(root, name)) gpus.push_back(std::move(*gpu));
  }
  // Kernel names are fixed-width lowercase hex, so text order is bus order.
  std::sort(gpus.begin(), gpus.end(),
            [](const core::Gpu& a, const core::Gpu& b) { return *a.pci_bus_id < *b.pci_bus_id; });
  for (size_t i = 0; i < gpus.size(); ++i) gpus[i].index = static_cast<int>(i);
  return gpus;
}

}  // namespace gpuvet::sysfs
