// Parses profiles/machines/*.yaml into MachineProfile and checks it for consistency.
// yaml-cpp exceptions and our own check failures (thrown as std::string) stop here.
#include "backends/sim/machine_profile.hpp"

#include <yaml-cpp/yaml.h>

#include <set>
#include <utility>

namespace gpuvet::sim {
namespace {

using Fail = std::string;  // thrown internally with the field path; becomes a core::Error below

const std::set<std::string> kKnownKeys = {"name",       "description", "hostname", "driver_version", "cuda_version", "seed",
                                          "gpus",       "nvlink",      "numa_nodes", "pcie",         "nics",
                                          "software"};
// Host software a profile may name (versions.json of a simulated accept run).
const std::set<std::string> kSoftwareKeys = {"kernel", "os", "nccl", "fabric_manager", "cuda_toolkit", "cublas"};

std::string text(const YAML::Node& node, const std::string& path) {
  if (!node || !node.IsScalar() || node.Scalar().empty()) throw Fail(path + ": expected a non-empty string");
  return node.Scalar();
}

std::string text_or(const YAML::Node& node, const std::string& path, std::string fallback) {
  if (!node) return fallback;
  return text(node, path);
}

template <class T>
T number(const YAML::Node& node, const std::string& path) {
  T out{};
  if (!node || !node.IsScalar() || !YAML::convert<T>::decode(node, out)) {
    throw Fail(path + ": expected a number");
  }
  return out;
}

std::vector<int> int_list(const YAML::Node& node, const std::string& path) {
  std::vector<int> out;
  if (!node) return out;
  if (!node.IsSequence()) throw Fail(path + ": expected a list of numbers");
  for (std::size_t i = 0; i < node.size(); ++i) out.push_back(number<int>(node[i], path + "[" + std::to_string(i) + "]"));
  return out;
}

// PCI bus numbers are written in hex as lspci prints them: "18", "2a".
int pci_bus(const YAML::Node& node, const std::string& path) {
  const std::string s = text(node, path);
  std::size_t used = 0;
  int bus = -1;
  try {
    bus = std::stoi(s, &used, 16);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != s.size() || bus < 0 || bus > 0xff) throw Fail(path + ": expected a hex PCI bus number 00-ff, got '" + s + "'");
  return bus;
}

void parse_gpus(const YAML::Node& node, MachineProfile& p) {
  if (!node || !node.IsSequence() || node.size() == 0) throw Fail("gpus: expected a non-empty list of groups");
  for (std::size_t i = 0; i < node.size(); ++i) {
    const std::string path = "gpus[" + std::to_string(i) + "]";
    const YAML::Node g = node[i];
    GpuGroup group;
    group.model_id = text(g["model"], path + ".model");
    group.count = number<int>(g["count"], path + ".count");
    if (group.count <= 0) throw Fail(path + ".count: must be positive");
    const YAML::Node buses = g["pci_buses"];
    if (!buses || !buses.IsSequence() || static_cast<int>(buses.size()) != group.count) {
      throw Fail(path + ".pci_buses: expected one hex bus number per GPU");
    }
    for (std::size_t b = 0; b < buses.size(); ++b) group.pci_buses.push_back(pci_bus(buses[b], path + ".pci_buses"));
    group.vbios = text_or(g["vbios"], path + ".vbios", "");
    group.board_part_number = text_or(g["board_part_number"], path + ".board_part_number", "");
    p.gpu_groups.push_back(std::move(group));
  }
}

void parse_nvlink(const YAML::Node& node, MachineProfile& p) {
  if (!node) return;
  const std::string fabric = text(node["fabric"], "nvlink.fabric");
  if (fabric == "none") return;
  if (fabric == "nvswitch") {
    p.fabric = NvlinkFabric::nvswitch;
    return;
  }
  if (fabric != "direct") throw Fail("nvlink.fabric: expected none, nvswitch or direct, got '" + fabric + "'");
  p.fabric = NvlinkFabric::direct;
  if (const YAML::Node meshes = node["meshes"]) {
    for (std::size_t i = 0; i < meshes.size(); ++i) {
      const std::string path = "nvlink.meshes[" + std::to_string(i) + "]";
      const std::vector<int> gpus = int_list(meshes[i]["gpus"], path + ".gpus");
      const int links = number<int>(meshes[i]["links_per_pair"], path + ".links_per_pair");
      for (std::size_t a = 0; a < gpus.size(); ++a) {
        for (std::size_t b = a + 1; b < gpus.size(); ++b) p.nvlink_pairs.push_back({gpus[a], gpus[b], links});
      }
    }
  }
  if (const YAML::Node pairs = node["pairs"]) {
    for (std::size_t i = 0; i < pairs.size(); ++i) {
      const std::string path = "nvlink.pairs[" + std::to_string(i) + "]";
      const std::vector<int> gpus = int_list(pairs[i]["gpus"], path + ".gpus");
      if (gpus.size() != 2) throw Fail(path + ".gpus: expected two GPU indices");
      p.nvlink_pairs.push_back({gpus[0], gpus[1], number<int>(pairs[i]["links"], path + ".links")});
    }
  }
  if (p.nvlink_pairs.empty()) throw Fail("nvlink: a direct fabric needs meshes or pairs");
}

void parse_pcie(const YAML::Node& node, MachineProfile& p) {
  if (!node || !node.IsSequence() || node.size() == 0) throw Fail("pcie: expected a list of host bridges");
  for (std::size_t i = 0; i < node.size(); ++i) {
    const std::string path = "pcie[" + std::to_string(i) + "]";
    const YAML::Node h = node[i];
    HostBridge bridge;
    bridge.numa_node = number<int>(h["numa_node"], path + ".numa_node");
    bridge.upstream_switch = h["upstream_switch"] ? h["upstream_switch"].as<bool>() : false;
    if (const YAML::Node sw = h["switches"]) {
      for (std::size_t s = 0; s < sw.size(); ++s) {
        const std::string sp = path + ".switches[" + std::to_string(s) + "]";
        bridge.switches.push_back({int_list(sw[s]["gpus"], sp + ".gpus"), int_list(sw[s]["nics"], sp + ".nics")});
      }
    }
    bridge.direct_gpus = int_list(h["gpus"], path + ".gpus");
    bridge.direct_nics = int_list(h["nics"], path + ".nics");
    p.host_bridges.push_back(std::move(bridge));
  }
}

void parse_software(const YAML::Node& node, MachineProfile& p) {
  if (!node) return;
  if (!node.IsMap()) throw Fail("software: expected a mapping of kernel, os, nccl, fabric_manager, cuda_toolkit, cublas");
  for (const auto& kv : node) {
    const auto key = kv.first.as<std::string>();
    if (!kSoftwareKeys.count(key)) throw Fail("software: unknown field '" + key + "'");
    p.software.emplace_back(key, text(kv.second, "software." + key));
  }
}

void parse_rest(const YAML::Node& root, MachineProfile& p) {
  parse_software(root["software"], p);
  const YAML::Node numa = root["numa_nodes"];
  if (!numa || !numa.IsSequence() || numa.size() == 0) throw Fail("numa_nodes: expected a non-empty list");
  for (std::size_t i = 0; i < numa.size(); ++i) {
    const std::string path = "numa_nodes[" + std::to_string(i) + "]";
    p.numa_nodes.push_back({number<int>(numa[i]["id"], path + ".id"), text(numa[i]["cpus"], path + ".cpus")});
  }
  if (const YAML::Node nics = root["nics"]) {
    for (std::size_t i = 0; i < nics.size(); ++i) {
      const std::string path = "nics[" + std::to_string(i) + "]";
      const YAML::Node n = nics[i];
      p.nics.push_back({text(n["name"], path + ".name"), number<double>(n["rate_gbit_s"], path + ".rate_gbit_s"),
                        text(n["link_layer"], path + ".link_layer"), text_or(n["state"], path + ".state", "ACTIVE"),
                        pci_bus(n["pci_bus"], path + ".pci_bus")});
    }
  }
}

// Every GPU and NIC sits exactly once in the PCIe tree; references are in range.
void check(const MachineProfile& p) {
  const int gpus = p.gpu_count();
  std::set<int> numa_ids;
  for (const auto& n : p.numa_nodes) {
    if (!numa_ids.insert(n.id).second) throw Fail("numa_nodes: id " + std::to_string(n.id) + " given twice");
  }
  std::multiset<int> placed_gpus;
  std::multiset<int> placed_nics;
  auto place = [](const std::vector<int>& ids, int limit, std::multiset<int>& placed, const char* what) {
    for (int id : ids) {
      if (id < 0 || id >= limit) throw Fail(std::string("pcie: ") + what + " " + std::to_string(id) + " does not exist");
      placed.insert(id);
    }
  };
  for (const auto& h : p.host_bridges) {
    if (!numa_ids.count(h.numa_node)) throw Fail("pcie: numa_node " + std::to_string(h.numa_node) + " is not in numa_nodes");
    for (const auto& s : h.switches) {
      place(s.gpus, gpus, placed_gpus, "GPU");
      place(s.nics, static_cast<int>(p.nics.size()), placed_nics, "NIC");
    }
    place(h.direct_gpus, gpus, placed_gpus, "GPU");
    place(h.direct_nics, static_cast<int>(p.nics.size()), placed_nics, "NIC");
  }
  for (int g = 0; g < gpus; ++g) {
    if (placed_gpus.count(g) != 1) throw Fail("pcie: GPU " + std::to_string(g) + " must be placed exactly once");
  }
  for (int n = 0; n < static_cast<int>(p.nics.size()); ++n) {
    if (placed_nics.count(n) != 1) throw Fail("pcie: NIC " + std::to_string(n) + " must be placed exactly once");
  }
  std::set<std::pair<int, int>> seen;
  for (const auto& pair : p.nvlink_pairs) {
    if (pair.gpu_a < 0 || pair.gpu_a >= gpus || pair.gpu_b < 0 || pair.gpu_b >= gpus || pair.gpu_a == pair.gpu_b) {
      throw Fail("nvlink: pair " + std::to_string(pair.gpu_a) + "-" + std::to_string(pair.gpu_b) + " is not two GPUs of this machine");
    }
    if (pair.links <= 0) throw Fail("nvlink: pair links must be positive");
    if (!seen.insert({std::min(pair.gpu_a, pair.gpu_b), std::max(pair.gpu_a, pair.gpu_b)}).second) {
      throw Fail("nvlink: pair " + std::to_string(pair.gpu_a) + "-" + std::to_string(pair.gpu_b) + " given twice");
    }
  }
}

}  // namespace

int MachineProfile::gpu_count() const {
  int n = 0;
  for (const auto& g : gpu_groups) n += g.count;
  return n;
}

core::Result<MachineProfile> parse_machine_profile(std::string_view yaml_text, const std::string& file_name) {
  try {
    const YAML::Node root = YAML::Load(std::string(yaml_text));
    if (!root.IsMap()) return core::input_error(file_name + ": expected a mapping");
    for (const auto& kv : root) {
      const auto key = kv.first.as<std::string>();
      if (!kKnownKeys.count(key)) throw Fail("unknown field '" + key + "'");
    }
    MachineProfile p;
    p.name = text(root["name"], "name");
    p.description = text(root["description"], "description");
    p.hostname = text(root["hostname"], "hostname");
    p.driver_version = text(root["driver_version"], "driver_version");
    p.cuda_version = text(root["cuda_version"], "cuda_version");
    p.seed = number<std::uint64_t>(root["seed"], "seed");
    parse_gpus(root["gpus"], p);
    parse_nvlink(root["nvlink"], p);
    parse_rest(root, p);
    parse_pcie(root["pcie"], p);
    check(p);
    return p;
  } catch (const Fail& what) {
    return core::input_error(file_name + ": " + what);
  } catch (const YAML::Exception& e) {
    return core::input_error(file_name + ": " + e.what());
  }
}

}  // namespace gpuvet::sim
