// Merges sysfs readings into a machine from another source; see enrich.hpp.
#include "backends/sysfs/enrich.hpp"

#include <set>
#include <string>

#include "backends/sysfs/infiniband.hpp"
#include "backends/sysfs/numa.hpp"
#include "backends/sysfs/pci_devices.hpp"
#include "backends/sysfs/pcie_path.hpp"

namespace gpuvet::sysfs {

namespace {

template <class T>
void fill_absent(core::Reading<T>& target, const core::Reading<T>& from_sysfs) {
  if (!target && from_sysfs) target = from_sysfs;
}

void fill_gpu(const platform::FsRoot& root, core::Gpu& gpu) {
  if (!gpu.pci_bus_id) return;
  const auto seen = read_pci_gpu(root, *gpu.pci_bus_id);
  if (!seen) return;
  fill_absent(gpu.numa_node, seen->numa_node);
  fill_absent(gpu.cpu_affinity, seen->cpu_affinity);
  fill_absent(gpu.pcie.gen_current, seen->pcie.gen_current);
  fill_absent(gpu.pcie.gen_max, seen->pcie.gen_max);
  fill_absent(gpu.pcie.width_current, seen->pcie.width_current);
  fill_absent(gpu.pcie.width_max, seen->pcie.width_max);
}

std::string gpu_label(const core::Gpu& gpu) { return "GPU" + std::to_string(gpu.index); }

// Path from one PCI device to every GPU of the machine, by position; absent if any is unknown.
core::Reading<std::vector<core::Link>> proximity(const platform::FsRoot& root, const std::string& bus_id,
                                                 const std::vector<core::Gpu>& gpus) {
  std::vector<core::Link> links;
  for (const auto& gpu : gpus) {
    if (!gpu.pci_bus_id) return core::Absent{gpu_label(gpu) + " has no PCI bus id"};
    const auto link = pcie_path(root, bus_id, *gpu.pci_bus_id);
    if (!link) return core::Absent{gpu_label(gpu) + ": " + link.reason()};
    links.push_back(*link);
  }
  return links;
}

core::Reading<core::LinkMatrix> pcie_matrix(const platform::FsRoot& root,
                                            const std::vector<core::Gpu>& gpus) {
  if (gpus.empty()) return core::Absent{"sysfs: no GPUs to connect"};
  core::LinkMatrix matrix(static_cast<int>(gpus.size()));
  for (size_t a = 0; a < gpus.size(); ++a) {
    const auto& gpu = gpus[a];
    if (!gpu.pci_bus_id) return core::Absent{"sysfs: " + gpu_label(gpu) + " has no PCI bus id"};
    const auto row = proximity(root, *gpu.pci_bus_id, gpus);
    if (!row) return core::Absent{"sysfs: " + gpu_label(gpu) + " to " + row.reason()};
    for (size_t b = 0; b < gpus.size(); ++b) {
      matrix.set(static_cast<int>(a), static_cast<int>(b), (*row)[b]);
    }
  }
  return matrix;
}

void note_unlisted_gpus(core::Machine& machine, const std::vector<core::Gpu>& on_bus) {
  std::set<std::string> listed;
  for (const auto& gpu : machine.gpus) {
    if (gpu.pci_bus_id) listed.insert(core::normalize_pci_bus_id(*gpu.pci_bus_id));
  }
  for (const auto& gpu : on_bus) {
    if (listed.count(*gpu.pci_bus_id) == 0) {
      machine.notes.push_back("sysfs: NVIDIA GPU " + *gpu.pci_bus_id +
                              " is on the PCI bus but missing from the GPU list (" + machine.source + ")");
    }
  }
}

bool has_active_nvlink(const std::vector<core::Gpu>& gpus) {
  for (const auto& gpu : gpus) {
    if (!gpu.nvlinks) continue;
    for (const auto& port : *gpu.nvlinks) {
      if (port.active && *port.active) return true;
    }
  }
  return false;
}

}  // namespace

void enrich_machine(const platform::FsRoot& root, core::Machine& machine) {
  for (auto& gpu : machine.gpus) fill_gpu(root, gpu);

  if (!machine.numa_nodes) machine.numa_nodes = read_numa_nodes(root);

  if (!machine.nics) {
    machine.nics = read_nics(root);
    if (machine.nics) {
      for (auto& nic : machine.nics.value()) {
        if (nic.pci_bus_id) {
          nic.gpu_proximity = proximity(root, *nic.pci_bus_id, machine.gpus);
        } else {
          nic.gpu_proximity = core::Absent{nic.pci_bus_id.reason()};
        }
      }
    }
  }

  // A PCIe-only matrix would hide NVLinks another source saw but could not map to peers, and
  // the judge would then call an NVLink machine "PCIe only": leave the matrix absent instead.
  if (!machine.links && has_active_nvlink(machine.gpus)) {
    machine.links = core::Reading<core::LinkMatrix>::absent(
        machine.links.reason() + "; NVLink ports are active but their peers are unknown, so sysfs's PCIe paths "
        "cannot stand in for the link matrix");
  } else if (!machine.links) {
    auto matrix = pcie_matrix(root, machine.gpus);
    machine.links = matrix ? std::move(matrix) : core::Reading<core::LinkMatrix>::absent(
                                                     machine.links.reason() + "; " + matrix.reason());
  }

  if (!pci_bus_visible(root)) return;
  const auto on_bus = list_gpus(root);
  if (!machine.attached_gpus) machine.attached_gpus = static_cast<int>(on_bus.size());
  note_unlisted_gpus(machine, on_bus);
}

}  // namespace gpuvet::sysfs
