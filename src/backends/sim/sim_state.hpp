// The simulator's working state: a profile composed with the catalogue, before it is rendered as a
// core::Machine. Fault overlays edit this state, so the rendered topology stays consistent.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
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

// A link whose CRC errors grow while it carries traffic, from a given time (nvlink-crc).
struct SimCrcFault {
  int link = 0;
  double per_min = 0;             // CRC errors per minute while the link carries traffic
  double at_s = 0;                // from this run time on
};

// Planted by burn-in faults; they show only under hours of load (times in run seconds).
struct SimBurninFaults {
  std::optional<double> throttle_at_s;                 // thermal-throttle: cooling fails at this time
  std::vector<std::pair<double, int>> xids;            // xid: (time, Xid code)
  std::vector<SimCrcFault> nvlink_crc;                 // nvlink-crc
  double ecc_sbe_per_hour = 0;                         // ecc-sbe: corrected ECC errors per hour
  std::optional<double> lost_at_s;                     // gpu-lost: falls off the bus at this time
  std::optional<double> miscompare_at_s;               // gemm-miscompare: wrong GEMM results from this time
  // Soak faults (fault_overlays_soak.cpp): they show with link traffic beside the load.
  double busbw_per_c = 0;                              // busbw-heat: % of link speed lost per °C ...
  double busbw_above_c = 45;                           // ... above this temperature
  std::optional<double> sdc_at_s;                      // sdc: silently wrong results from this time
  // Monitor faults (fault_overlays_monitor.cpp): they develop over days of production load.
  double util_factor = 1.0;                            // util-lag: utilization as a share of its peers'
  double util_lag_at_s = 0;                            // ... from this run time on
  double temp_drift_c_per_day = 0;                     // temp-drift: runs this much hotter each day
  std::vector<double> ecc_dbe_at_s;                    // ecc-dbe: an uncorrectable ECC error at each time
  std::optional<double> remap_failure_at_s;            // row-remap-failure: from this time on
  double pcie_replays_per_min = 0;                     // pcie-replay: replays per minute under load ...
  double pcie_replays_at_s = 0;                        // ... from this run time on
  // pcie-degraded with at=T: the link trains at its maximum and drops to (gen, width) at T.
  std::optional<double> pcie_degraded_at_s;
  int pcie_degraded_gen = 0;
  int pcie_degraded_width = 0;
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

  // Planted by measurement faults; invisible to NVML and nvidia-smi, seen only by probes.
  bool p2p_disabled = false;                 // p2p-disabled: no peer access to or from this GPU
  std::optional<double> vram_real_gib;       // vram-short: memory that really exists (GiB)
  std::vector<double> vram_bad_offsets_gib;  // vram-bad: where stored bits do not read back
  double straggler_factor = 1.0;             // straggler: share of its peers' speed it reaches
  std::optional<std::uint64_t> collective_hang_bytes;  // collective-hang: collectives this big never finish
  bool collective_corrupts = false;          // collective-corrupt: its share of every result is wrong
  SimBurninFaults burnin;                    // fault_overlays_burnin.cpp; read by burnin_model
};

// slow-link: the path between GPUs a and b (profile indices) runs at `factor` of its speed.
struct SimSlowLink {
  int a = 0;
  int b = 0;
  double factor = 1.0;
};

struct SimState {
  MachineProfile profile;
  std::vector<SimGpu> gpus;          // by original index
  std::vector<SimSlowLink> slow_links;
  std::vector<std::string> notes;
};

// Composes the profile with the catalogue. Unknown model ids or NVLink layouts that need more
// ports than a model has are errors (bad_input) naming the profile.
core::Result<SimState> build_state(MachineProfile profile, const core::Catalog& catalog);

// The machine as NVML, sysfs and nvidia-smi would show it.
core::Machine render_machine(const SimState& state);

// A built-in profile with the faults applied in order (what simulate_machine renders).
core::Result<SimState> build_simulation(std::string_view profile, const std::vector<FaultSpec>& faults);

// The path between GPUs a and b (profile indices) as topo -m would label it: NV# or the PCIe path.
core::Link sim_pair_link(const SimState& state, int a, int b);
// The NUMA node of the socket GPU `gpu` hangs off, and the one it reports (numa-misplaced).
int physical_numa_node(const SimState& state, int gpu);
int reported_numa_node(const SimState& state, int gpu);

// Ampere and newer remap rows (nvmlDeviceGetRemappedRows); older GPUs retire pages instead.
bool uses_row_remapping(const core::GpuModel& model);

// Applies one fault; errors are usage errors naming the fault text.
std::optional<core::Error> apply_fault(SimState& state, const FaultSpec& fault);

}  // namespace gpuvet::sim
