// read_live_machine: NVML first, then sysfs fills PCIe/NUMA/NIC facts NVML does not give.
#include "probes/live_machine.hpp"

#include <fmt/format.h>

#include "backends/nvml/nvml_reader.hpp"
#include "backends/nvml/nvml_topology.hpp"
#include "backends/sysfs/sysfs_enrich.hpp"

namespace gpuvet::probes {

std::string default_nvml_library() { return nvml::default_library_name(); }

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
  if (!result.links) {
    // NVML could not give every PCIe path (nvmlDeviceGetTopologyCommonAncestor missing or
    // failing): ask sysfs for those, keeping NVML's NVLink counts.
    const auto& gpus = result.gpus;
    const auto& root = sources.sysfs_root;
    auto from_sysfs = nvml::build_link_matrix(gpus, [&](int a, int b) -> core::Reading<core::LinkKind> {
      const auto& bus_a = gpus[static_cast<size_t>(a)].pci_bus_id;
      const auto& bus_b = gpus[static_cast<size_t>(b)].pci_bus_id;
      if (!bus_a || !bus_b) return core::Absent{"PCI bus id unknown"};
      const auto link = sysfs::pcie_path(root, *bus_a, *bus_b);
      if (!link) return core::Absent{link.reason()};
      return link->kind;
    });
    if (from_sysfs) result.links = std::move(from_sysfs);
  }
  sysfs::enrich_machine(sources.sysfs_root, result);
  result.source = "live (NVML + sysfs)";
  return result;
}

}  // namespace gpuvet::probes
