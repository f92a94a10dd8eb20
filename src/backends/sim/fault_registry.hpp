// The simulator's fault overlays, one family per file (internal to the simulator). A family
// returns its definitions; fault_registry.cpp lists the families in one place.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "backends/sim/sim_state.hpp"

namespace gpuvet::sim {

struct FaultDef {
  std::string name;         // stable: users put it in scripts
  std::string usage;        // "nvlink-down:gpu=N,link=L"
  std::string description;
  std::function<std::optional<core::Error>(SimState&, const FaultSpec&)> apply;
};

// What nvidia-smi, NVML and sysfs show: links, PCIe, batches, missing GPUs, NUMA.
std::vector<FaultDef> machine_fault_defs();
// What copy and memory measurements show (fault_overlays_links.cpp).
std::vector<FaultDef> link_fault_defs();
// What collectives show (fault_overlays_collectives.cpp).
std::vector<FaultDef> collective_fault_defs();
// What the network shows: NICs down or trained below their rate (fault_overlays_network.cpp).
std::vector<FaultDef> network_fault_defs();
// What hours under load show (fault_overlays_burnin.cpp).
std::vector<FaultDef> burnin_fault_defs();
// What a soak with link traffic shows: links that slow when hot, silent corruption (fault_overlays_soak.cpp).
std::vector<FaultDef> soak_fault_defs();
// What days of production load show, for the monitor (fault_overlays_monitor.cpp).
std::vector<FaultDef> monitor_fault_defs();
// Uncorrectable ECC, row remap failure, PCIe replays (fault_overlays_memory.cpp).
std::vector<FaultDef> memory_fault_defs();

// Every family in order; a name appears once.
const std::vector<FaultDef>& fault_defs();

}  // namespace gpuvet::sim
