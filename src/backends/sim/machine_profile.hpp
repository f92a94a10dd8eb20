// A machine profile (profiles/machines/<name>.yaml): which GPUs, how NVLink joins them, the PCIe
// tree, NUMA nodes and NICs. Parsed here; composed with the GPU catalogue in sim_state.cpp.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/error.hpp"

namespace gpuvet::sim {

// `count` GPUs of one catalogue model, given consecutive indices in profile order.
struct GpuGroup {
  std::string model_id;
  int count = 0;
  std::vector<int> pci_buses;      // one PCI bus number per GPU (domain 0000, device 00.0)
  std::string vbios;               // overrides the catalogue's typical value when set
  std::string board_part_number;   // idem
};

enum class NvlinkFabric { none, nvswitch, direct };

struct NvlinkPair {
  int gpu_a = 0;
  int gpu_b = 0;
  int links = 0;
};

// Devices on one PCIe switch see each other as PIX.
struct PcieSwitch {
  std::vector<int> gpus;
  std::vector<int> nics;
};

// One PCIe host bridge (root complex / root port) on a NUMA node. Devices under different switches
// of the same bridge are PXB when the switches share an upstream switch, else PHB.
struct HostBridge {
  int numa_node = 0;
  bool upstream_switch = false;
  std::vector<PcieSwitch> switches;
  std::vector<int> direct_gpus;    // on a root port without a switch
  std::vector<int> direct_nics;
};

struct NicSpec {
  std::string name;                // "mlx5_0"
  double rate_gbit_s = 0;
  std::string link_layer;          // "InfiniBand", "Ethernet"
  std::string state;               // "ACTIVE"
  int pci_bus = 0;
};

struct NumaSpec {
  int id = 0;
  std::string cpus;                // cpulist
};

struct MachineProfile {
  std::string name;
  std::string description;
  std::string hostname;
  std::string driver_version;
  std::string cuda_version;
  std::uint64_t seed = 0;          // UUIDs and serials derive from it
  std::vector<GpuGroup> gpu_groups;
  NvlinkFabric fabric = NvlinkFabric::none;
  std::vector<NvlinkPair> nvlink_pairs;  // direct fabric: meshes are expanded into pairs
  std::vector<NumaSpec> numa_nodes;
  std::vector<HostBridge> host_bridges;
  std::vector<NicSpec> nics;
  // Host software as the profile states it (key -> version; keys: kernel, os, nccl,
  // fabric_manager, cuda_toolkit, cublas), in file order; a key not given is unknown.
  std::vector<std::pair<std::string, std::string>> software;

  [[nodiscard]] int gpu_count() const;
};

// Parses and checks one profile: every GPU and NIC placed exactly once in the PCIe tree, NUMA ids
// defined, NVLink pairs in range. Errors (bad_input) name the file and the field.
core::Result<MachineProfile> parse_machine_profile(std::string_view yaml_text, const std::string& file_name);

}  // namespace gpuvet::sim
