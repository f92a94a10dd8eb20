// read_live_machine: NVML first, then sysfs fills PCIe/NUMA/NIC facts NVML does not give.
#include "probes/live_machine.hpp"

#include <fmt/format.h>

#include "backends/nvml/nvml_reader.hpp"
#include "backends/sysfs/sysfs_enrich.hpp"

namespace gpuvet::probes {

core::Result<core::Machine> read_live_machine(const LiveSources& sources) {
  auto machine = nvml::read_machine(sources.nvml_library);
  if (!machine) {
    const auto on_bus = sysfs::list_gpus(sources.sysfs_root);
    if (on_bus.empty()) {
      return machine.error().with_context("no NVIDIA GPU found on the PCI bus and NVML is unavailable");
    }
    return machine.error().with_context(fmt::format(
        "{} NVIDIA GPU(s) on the PCI bus but NVML cannot be used (driver not installed or not loaded?)",
        on_bus.size()));
  }
  auto result = std::move(machine).value();
  sysfs::enrich_machine(sources.sysfs_root, result);
  result.source = "live (NVML + sysfs)";
  return result;
}

}  // namespace gpuvet::probes
