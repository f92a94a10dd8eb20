// Matches machine GPUs to backend devices by normalised PCI bus id.
#include "probes/gpu_ordinals.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace gpuvet::probes {

std::vector<int> OrdinalMap::ordinals(const std::vector<int>& indices) const {
  std::vector<int> out;
  for (int g : indices) out.push_back(ordinal_of.at(g));
  return out;
}

std::vector<int> OrdinalMap::indices(const std::vector<int>& ordinals) const {
  std::vector<int> out;
  for (int o : ordinals) {
    const auto it = index_of.find(o);
    out.push_back(it == index_of.end() ? -1 : it->second);
  }
  return out;
}

core::Result<OrdinalMap> map_ordinals(const core::Machine& machine, const std::vector<api::DeviceInfo>& devices,
                                      const std::vector<int>& gpus, const std::string& backend) {
  OrdinalMap map;
  for (int g : gpus) {
    const int position = core::position_of_gpu(machine, g);
    if (position < 0) return core::usage_error(fmt::format("this machine has no GPU {}", g));
    const auto& gpu = machine.gpus[static_cast<std::size_t>(position)];
    const auto it = std::find_if(devices.begin(), devices.end(), [&](const api::DeviceInfo& d) {
      return gpu.pci_bus_id && core::normalize_pci_bus_id(d.pci_bus_id) == *gpu.pci_bus_id;
    });
    if (it == devices.end()) {
      return core::environment_error(fmt::format("GPU {} ({}) is not among the GPUs {} can drive", g,
                                                 gpu.pci_bus_id ? *gpu.pci_bus_id : "bus id unknown", backend));
    }
    map.ordinal_of[g] = it->ordinal;
    map.index_of[it->ordinal] = g;
  }
  return map;
}

}  // namespace gpuvet::probes
