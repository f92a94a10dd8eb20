// Classifies the PCIe path between two devices from their sysfs placement; see pcie_path.hpp.
#include "backends/sysfs/pcie_path.hpp"

#include <optional>
#include <vector>

#include "backends/sysfs/numa.hpp"
#include "backends/sysfs/pci_devices.hpp"
#include "backends/sysfs/sysfs_values.hpp"

namespace gpuvet::sysfs {

namespace {

using LinkReading = core::Reading<core::Link>;

// A device's place: its root complex ("pci0000:17") and the chain of PCI functions from the
// root port down to the device itself.
struct Placement {
  std::string root_complex;
  std::vector<std::string> chain;
};

std::optional<Placement> placement_of(std::string_view path) {
  constexpr std::string_view kDevices = "/sys/devices/";
  if (path.substr(0, kDevices.size()) != kDevices) return std::nullopt;
  path.remove_prefix(kDevices.size());
  Placement place;
  while (!path.empty()) {
    const auto slash = path.find('/');
    const auto part = path.substr(0, slash);
    if (place.root_complex.empty()) {
      place.root_complex = std::string(part);
    } else if (!part.empty()) {
      place.chain.emplace_back(part);  // bridges, and the nested host bridges of VMD domains
    }
    if (slash == std::string_view::npos) break;
    path.remove_prefix(slash + 1);
  }
  if (place.root_complex.substr(0, 3) != "pci" || place.chain.empty() ||
      !is_pci_bus_id(place.chain.back())) {
    return std::nullopt;
  }
  return place;
}

LinkReading across_root_complexes(const core::Reading<int>& numa_a, const core::Reading<int>& numa_b,
                                  int numa_node_count) {
  if (numa_a && numa_b) {
    return core::Link{*numa_a == *numa_b ? core::LinkKind::node : core::LinkKind::sys, 0};
  }
  if (numa_node_count == 1) return core::Link{core::LinkKind::node, 0};
  return LinkReading::absent("different host bridges and the NUMA node is unknown (" +
                             (numa_a ? numa_b.reason() : numa_a.reason()) + ")");
}

}  // namespace

LinkReading classify_pcie_path(std::string_view path_a, std::string_view path_b,
                               const core::Reading<int>& numa_a, const core::Reading<int>& numa_b,
                               int numa_node_count) {
  const auto a = placement_of(path_a);
  const auto b = placement_of(path_b);
  if (!a || !b) {
    const auto bad = std::string(a ? path_b : path_a);
    return LinkReading::absent(bad + " is not a PCI device under a root complex");
  }
  if (path_a == path_b) return core::Link{core::LinkKind::self, 0};
  if (a->root_complex != b->root_complex) return across_root_complexes(numa_a, numa_b, numa_node_count);
  size_t common = 0;
  while (common < a->chain.size() && common < b->chain.size() && a->chain[common] == b->chain[common]) {
    ++common;
  }
  if (common == 0) return core::Link{core::LinkKind::phb, 0};
  // Levels below the deepest common bridge: 1 = directly under it, 2 = under one of its
  // downstream ports (the same switch). Either side deeper means another switch on the way.
  const size_t below_a = a->chain.size() - common;
  const size_t below_b = b->chain.size() - common;
  return core::Link{below_a <= 2 && below_b <= 2 ? core::LinkKind::pix : core::LinkKind::pxb, 0};
}

LinkReading pcie_path(const platform::FsRoot& root, const std::string& bus_a, const std::string& bus_b) {
  const auto path_a = pci_device_path(root, bus_a);
  if (!path_a) return LinkReading::absent("PCI device " + bus_a + " not found in sysfs");
  const auto path_b = pci_device_path(root, bus_b);
  if (!path_b) return LinkReading::absent("PCI device " + bus_b + " not found in sysfs");
  const auto numa_a = read_attribute<int>(root, *path_a, "numa_node", parse_numa_node);
  const auto numa_b = read_attribute<int>(root, *path_b, "numa_node", parse_numa_node);
  const auto nodes = read_numa_nodes(root);
  const int node_count = nodes ? static_cast<int>(nodes->size()) : 0;
  return classify_pcie_path(*path_a, *path_b, numa_a, numa_b, node_count);
}

}  // namespace gpuvet::sysfs
