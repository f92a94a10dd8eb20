// Reads RDMA NICs from /sys/class/infiniband; see infiniband.hpp.
#include "backends/sysfs/infiniband.hpp"

#include <algorithm>
#include <cctype>
#include <string>

#include "backends/sysfs/sysfs_values.hpp"

namespace gpuvet::sysfs {

namespace {

// Length of the digit run at the start of `s`.
size_t digit_run(std::string_view s) {
  size_t n = 0;
  while (n < s.size() && std::isdigit(static_cast<unsigned char>(s[n]))) ++n;
  return n;
}

// Lowest-numbered port directory name ("1"), or empty when the device has no ports.
std::string first_port(const platform::FsRoot& root, const std::string& ports_dir) {
  auto ports = root.list(ports_dir);
  std::sort(ports.begin(), ports.end(), natural_less);
  return ports.empty() ? std::string() : ports.front();
}

// "InfiniBand" or "Ethernet" (RoCE), as the kernel prints it.
core::Reading<std::string> parse_link_layer(std::string_view text) {
  if (text.empty()) return core::Reading<std::string>::absent("empty");
  return std::string(text);
}

void read_pci_location(const platform::FsRoot& root, const std::string& dev_dir, core::Nic& nic) {
  const auto link = dev_dir + "/device";
  const auto device = root.exists(link) ? root.canonical(link) : std::nullopt;
  if (!device) {
    const auto reason = link + " missing or dangling (not a PCI device)";
    nic.pci_bus_id = core::Absent{reason};
    nic.numa_node = core::Absent{reason};
    return;
  }
  const auto bus_id = device->substr(device->rfind('/') + 1);
  if (!is_pci_bus_id(bus_id)) {
    const auto reason = link + " -> " + *device + " is not a PCI function";
    nic.pci_bus_id = core::Absent{reason};
    nic.numa_node = core::Absent{reason};
    return;
  }
  nic.pci_bus_id = bus_id;
  nic.numa_node = read_attribute<int>(root, *device, "numa_node", parse_numa_node);
}

}  // namespace

bool natural_less(const std::string& a, const std::string& b) {
  std::string_view x = a, y = b;
  while (!x.empty() && !y.empty()) {
    const size_t dx = digit_run(x), dy = digit_run(y);
    if (dx > 0 && dy > 0) {
      // Compare digit runs as numbers: shorter (without leading zeros) is smaller.
      auto nx = x.substr(0, dx), ny = y.substr(0, dy);
      while (nx.size() > 1 && nx.front() == '0') nx.remove_prefix(1);
      while (ny.size() > 1 && ny.front() == '0') ny.remove_prefix(1);
      if (nx.size() != ny.size()) return nx.size() < ny.size();
      if (nx != ny) return nx < ny;
      x.remove_prefix(dx);
      y.remove_prefix(dy);
      continue;
    }
    if (dx > 0 || dy > 0) return dx > 0;  // digits before letters
    if (x.front() != y.front()) return x.front() < y.front();
    x.remove_prefix(1);
    y.remove_prefix(1);
  }
  return x.size() < y.size();
}

core::Reading<std::vector<core::Nic>> read_nics(const platform::FsRoot& root) {
  using Nics = core::Reading<std::vector<core::Nic>>;
  if (!root.exists(kInfinibandDir)) {
    return Nics::absent(std::string(kInfinibandDir) + " missing (no RDMA devices or drivers not loaded)");
  }
  auto names = root.list(kInfinibandDir);
  std::sort(names.begin(), names.end(), natural_less);
  std::vector<core::Nic> nics;
  for (const auto& name : names) {
    const auto dev_dir = std::string(kInfinibandDir) + "/" + name;
    core::Nic nic;
    nic.label = "NIC" + std::to_string(nics.size());
    nic.name = name;
    nic.gpu_proximity = core::Absent{"needs the machine's GPU list (filled by enrich_machine)"};
    read_pci_location(root, dev_dir, nic);
    const auto port = first_port(root, dev_dir + "/ports");
    if (port.empty()) {
      const auto reason = dev_dir + "/ports lists no port";
      nic.rate_gbit_s = core::Absent{reason};
      nic.state = nic.link_layer = core::Absent{reason};
    } else {
      const auto port_dir = dev_dir + "/ports/" + port;
      nic.state = read_attribute<std::string>(root, port_dir, "state", parse_ib_state);
      nic.link_layer = read_attribute<std::string>(root, port_dir, "link_layer", parse_link_layer);
      nic.rate_gbit_s = read_attribute<double>(root, port_dir, "rate", parse_ib_rate_gbit_s);
      if (nic.state && *nic.state == "DOWN") {
        nic.rate_gbit_s = core::Absent{"port " + port + " is DOWN: no trained link rate"};
      }
    }
    nics.push_back(std::move(nic));
  }
  return nics;
}

}  // namespace gpuvet::sysfs
