// Link matrix and NVSwitch presence from per-GPU NVLink ports (see nvml_topology.hpp).
#include "backends/nvml/nvml_topology.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <optional>
#include <string>

#include "backends/nvml/nvml_device.hpp"

namespace gpuvet::nvml {

namespace {

struct NvLinkTally {
  std::vector<int> to_gpu;  // active links per peer position
  int to_switch = 0;
};

int position_of_bus_id(const std::vector<core::Gpu>& gpus, const std::string& bus_id) {
  for (size_t i = 0; i < gpus.size(); ++i) {
    if (gpus[i].pci_bus_id.known() && gpus[i].pci_bus_id.value() == bus_id) return static_cast<int>(i);
  }
  return -1;
}

// True when the remote bus id of an active port is reached from at least two of our GPUs but is
// none of them: only an NVSwitch terminates NVLinks from several GPUs. Lets drivers without
// nvmlDeviceGetNvLinkRemoteDeviceType (pre-R470) still show an NVSwitch fabric.
bool shared_non_gpu_remote(const std::vector<core::Gpu>& gpus, const std::string& bus_id) {
  if (position_of_bus_id(gpus, bus_id) >= 0) return false;
  int reaching = 0;
  for (const auto& gpu : gpus) {
    if (!gpu.nvlinks.known()) continue;
    for (const auto& port : gpu.nvlinks.value()) {
      if (port.active.value_or(false) && port.remote_pci_bus_id.known() && port.remote_pci_bus_id.value() == bus_id) {
        ++reaching;
        break;
      }
    }
  }
  return reaching >= 2;
}

bool is_switch_port(const std::vector<core::Gpu>& gpus, const core::NvLinkPort& port) {
  if (port.remote.known()) return port.remote.value() == core::NvLinkRemote::nvswitch;
  return port.remote_pci_bus_id.known() && shared_non_gpu_remote(gpus, port.remote_pci_bus_id.value());
}

// Counts one GPU's active links by remote. Returns why it cannot when a remote is unidentifiable.
std::optional<std::string> tally(const std::vector<core::Gpu>& gpus, size_t self, NvLinkTally& out) {
  out.to_gpu.assign(gpus.size(), 0);
  const core::Gpu& gpu = gpus[self];
  if (!gpu.nvlinks.known()) {
    if (gpu.nvlinks.reason() == kNotSupported) return std::nullopt;  // no NVLink on this GPU
    return fmt::format("GPU {} NVLink ports unknown: {}", gpu.index, gpu.nvlinks.reason());
  }
  for (const auto& port : gpu.nvlinks.value()) {
    if (!port.active.known()) {
      return fmt::format("GPU {} NVLink {} state unknown: {}", gpu.index, port.link, port.active.reason());
    }
    if (!port.active.value()) continue;
    const int peer = port.remote_pci_bus_id.known() ? position_of_bus_id(gpus, port.remote_pci_bus_id.value()) : -1;
    if (is_switch_port(gpus, port)) {
      ++out.to_switch;
    } else if (peer >= 0 && (!port.remote.known() || port.remote.value() == core::NvLinkRemote::gpu)) {
      ++out.to_gpu[static_cast<size_t>(peer)];
    } else if (!port.remote.known()) {
      return fmt::format("GPU {} NVLink {} remote unknown: {}", gpu.index, port.link, port.remote.reason());
    }
    // Remotes that are CPUs (NPU) or GPUs not in this machine do not join two of our GPUs.
  }
  return std::nullopt;
}

}  // namespace

core::Reading<core::LinkMatrix> build_link_matrix(const std::vector<core::Gpu>& gpus, const PciePathLookup& pcie_path) {
  std::vector<NvLinkTally> tallies(gpus.size());
  for (size_t i = 0; i < gpus.size(); ++i) {
    if (auto why = tally(gpus, i, tallies[i])) return core::Reading<core::LinkMatrix>::absent(*why);
  }
  const int n = static_cast<int>(gpus.size());
  core::LinkMatrix matrix(n);
  for (int a = 0; a < n; ++a) {
    for (int b = a + 1; b < n; ++b) {
      const auto& ta = tallies[static_cast<size_t>(a)];
      const auto& tb = tallies[static_cast<size_t>(b)];
      const int ab = ta.to_gpu[static_cast<size_t>(b)];
      const int ba = tb.to_gpu[static_cast<size_t>(a)];
      int links = (ab > 0 && ba > 0) ? std::min(ab, ba) : std::max(ab, ba);
      if (links == 0 && ta.to_switch > 0 && tb.to_switch > 0) links = std::min(ta.to_switch, tb.to_switch);
      if (links > 0) {
        matrix.set_symmetric(a, b, core::Link{core::LinkKind::nvlink, links});
        continue;
      }
      const auto path = pcie_path(a, b);
      if (!path.known()) {
        return core::Reading<core::LinkMatrix>::absent(
            fmt::format("PCIe path GPU {} - GPU {}: {}", gpus[static_cast<size_t>(a)].index,
                        gpus[static_cast<size_t>(b)].index, path.reason()));
      }
      matrix.set_symmetric(a, b, core::Link{path.value(), 0});
    }
  }
  return matrix;
}

core::Reading<bool> nvswitch_present(const std::vector<core::Gpu>& gpus) {
  std::optional<std::string> unknown;
  bool any_info = false;
  for (const auto& gpu : gpus) {
    if (!gpu.nvlinks.known()) {
      if (gpu.nvlinks.reason() == kNotSupported) {
        any_info = true;
      } else if (!unknown) {
        unknown = fmt::format("GPU {} NVLink ports unknown: {}", gpu.index, gpu.nvlinks.reason());
      }
      continue;
    }
    any_info = true;
    for (const auto& port : gpu.nvlinks.value()) {
      if (!port.active.value_or(false)) continue;
      if (is_switch_port(gpus, port)) return true;
      const bool peer_gpu =
          port.remote_pci_bus_id.known() && position_of_bus_id(gpus, port.remote_pci_bus_id.value()) >= 0;
      if (!port.remote.known() && !peer_gpu && !unknown) {
        unknown = fmt::format("GPU {} NVLink {} remote unknown: {}", gpu.index, port.link, port.remote.reason());
      }
    }
  }
  if (unknown) return core::Reading<bool>::absent(*unknown);
  if (!any_info) return core::Reading<bool>::absent("no NVLink information");
  return false;
}

}  // namespace gpuvet::nvml
