// The simulator's working state: a profile composed with the catalogue, before it is rendered as a
// core::Machine. Fault overlays edit this state, so the rendered topology stays consistent.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "backends/sim/machine_profile.hpp"
#include "backends/sim/simulator.hpp"
#include "core/gpu_model.hpp"
#include "core/machine.hpp"

namespace gpuvet::sim {

struct SimPort {
  bool connected = false;        // cabled or bridged to something
  bool active = false;
  core::NvLinkRemote remote = core::NvLinkRemote::unknown;
  int peer_gpu = -1;             // original GPU index when remote == gpu
  int peer_port = -1;
};

struct SimGpu {
  const core::GpuModel* model = nullptr;
  int pci_bus = 0;
  int host_bridge = 0;           // index into profile.host_bridges
  int pcie_switch = -1;          // index into that bridge's switches; -1 = on a root port
  std::string uuid;
  std::string serial;
  std::string vbios;
  std::string board_part_number;
  std::uint64_t memory_total_mib = 0;
  int pcie_gen_current = 0;
  int pcie_width_current = 0;
  std::optional<int> numa_override;  // numa-misplaced
  std::vector<SimPort> ports;
  bool present = true;               // gpu-missing clears it
};

struct SimState {
  MachineProfile profile;
  std::vector<SimGpu> gpus;          // by original index
  std::vector<std::string> notes;
};

// Composes the profile with the catalogue. Unknown model ids or NVLink layouts that need more
// ports than a model has are errors (bad_input) naming the profile.
core::Result<SimState> build_state(MachineProfile profile, const core::Catalog& catalog);

// The machine as NVML, sysfs and nvidia-smi would show it.
core::Machine render_machine(const SimState& state);

// Applies one fault; errors are usage errors naming the fault text.
std::optional<core::Error> apply_fault(SimState& state, const FaultSpec& fault);

}  // namespace gpuvet::sim
