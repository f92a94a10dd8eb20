// The one picture of a multi-GPU machine that every source (NVML, sysfs, pasted nvidia-smi
// output, simulator) fills in and every judge reads. No vendor types; every field a source may
// not know is a Reading, so "unknown" is never confused with zero.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/reading.hpp"
#include "core/topology.hpp"

namespace gpuvet::core {

enum class NvLinkRemote { gpu, nvswitch, cpu, unknown };
std::string_view to_string(NvLinkRemote remote);

// One error counter of an NVLink port as nvidia-smi nvlink -e / -ec or dcgmi print it.
struct NvLinkCounter {
  std::string name;          // as printed: "Replay Errors", "CRC Flit Errors", "CRC Errors", ...
  std::uint64_t value = 0;
  bool operator==(const NvLinkCounter&) const = default;
};

// One NVLink port of a GPU.
struct NvLinkPort {
  int link = 0;                             // port number on this GPU
  Reading<bool> active;                     // link trained and up
  Reading<int> version;                     // marketing NVLink generation (1..6)
  Reading<double> speed_gbps;               // per-direction GB/s as nvidia-smi nvlink -s prints it
  Reading<NvLinkRemote> remote;             // what the other end is
  Reading<std::string> remote_pci_bus_id;   // normalised bus id of the other end
  Reading<std::vector<NvLinkCounter>> error_counters;  // CRC / replay / recovery counts since the last reset
};

struct PcieLink {
  Reading<int> gen_current;
  Reading<int> gen_max;          // max possible with this GPU in this slot
  Reading<int> width_current;
  Reading<int> width_max;
  Reading<int> replays = Reading<int>::absent("not read");  // "Replays Since Reset" (nvidia-smi -q): a count, no rate
};

// Memory health counters as nvidia-smi -q and NVML report them.
struct MemoryHealth {
  Reading<int> remapped_rows_correctable;
  Reading<int> remapped_rows_uncorrectable;
  Reading<bool> remap_pending;
  Reading<bool> remap_failure;
  Reading<int> retired_pages_sbe;
  Reading<int> retired_pages_dbe;
  Reading<bool> retired_pages_pending;
};

struct Gpu {
  int index = 0;
  Reading<std::string> name;               // "NVIDIA H100 80GB HBM3"
  Reading<std::string> uuid;
  Reading<std::string> serial;
  Reading<std::string> board_part_number;
  Reading<std::string> vbios;
  Reading<std::string> inforom_image;
  Reading<std::string> architecture;       // "Hopper"
  Reading<std::string> compute_capability; // "9.0"
  Reading<std::uint64_t> memory_total_mib;
  Reading<std::string> pci_bus_id;         // normalised "0000:18:00.0"
  Reading<std::string> host;               // the node it is in, when the input spans several (multi-node Rank lines)
  PcieLink pcie;
  Reading<int> numa_node;
  Reading<std::string> cpu_affinity;       // cpulist "0-31,64-95"
  Reading<double> power_limit_w;
  Reading<int> max_sm_clock_mhz;
  Reading<int> max_mem_clock_mhz;
  Reading<bool> ecc_enabled;
  Reading<bool> mig_enabled;
  Reading<std::string> virtualization_mode;  // "None", "Pass-Through", "VGPU", ...
  Reading<std::string> fabric_state;         // NVSwitch fabric manager state: "Completed", ...
  Reading<bool> idle;                        // clocks-event reason "GPU idle" active
  Reading<std::string> performance_state;    // "P0".."P12" as nvidia-smi prints it (P8 = idle)
  Reading<std::vector<std::string>> clocks_event_reasons;  // active reasons except idle
  Reading<std::vector<NvLinkPort>> nvlinks;
  MemoryHealth memory_health;
  // The input names this GPU (a topo -m header column) but its own part was cut away (its row):
  // the GPU is known to exist, not seen. A view of another input that shows it makes it seen.
  bool unseen = false;
};

struct Nic {
  std::string label;                   // "NIC0" as topo -m names it, or the device name
  Reading<std::string> name;           // "mlx5_0"
  Reading<double> rate_gbit_s;         // port rate in Gb/s (IB/RoCE convention)
  Reading<std::string> state;          // "ACTIVE", "DOWN", ...
  Reading<std::string> link_layer;     // "InfiniBand", "Ethernet"
  Reading<std::string> pci_bus_id;
  Reading<int> numa_node;
  Reading<std::vector<Link>> gpu_proximity;  // path to each GPU, by GPU position in Machine::gpus
};

struct NumaNode {
  int id = 0;
  Reading<std::string> cpus;  // cpulist
};

// Something the driver or nvidia-smi printed about a GPU in trouble, read from a pasted kernel
// log (dmesg, journalctl -k) or from the warnings of the default nvidia-smi table.
enum class GpuEventKind {
  xid,                 // "NVRM: Xid (PCI:0000:18:00): 79, ..."
  fallen_off_bus,      // "NVRM: GPU at 0000:01:00.0 has fallen off the bus."
  probe_failed,        // "NVRM: The NVIDIA probe routine failed for 1 device(s)."
  device_handle_lost,  // nvidia-smi "Unable to determine the device handle for GPU ...: Unknown Error"
  inforom_corrupted,   // nvidia-smi "WARNING: infoROM is corrupted at gpu 0000:..."
};
std::string_view to_string(GpuEventKind kind);

struct GpuEvent {
  GpuEventKind kind = GpuEventKind::xid;
  Reading<std::string> pci_bus_id;  // normalised "0000:18:00.0"
  int xid = 0;                      // the Xid number (kind xid)
  bool referenced_only = false;     // only named by a later line ("caused by previous Xid 149")
  int count = 1;                    // identical events folded (same kind, GPU and Xid)
  std::string text;                 // the first line as printed (prefix and timestamp dropped)
  std::string where;                // "<file>: line <n>" of the first occurrence
};

struct Machine {
  std::string source;                  // "live (NVML + sysfs)", "simulated: hgx-h100-8x", files...
  bool simulated = false;
  Reading<std::string> hostname;
  Reading<std::string> driver_version;
  Reading<std::string> cuda_version;   // "12.7"
  Reading<int> attached_gpus;          // what the source says is attached (may exceed gpus.size())
  std::vector<Gpu> gpus;               // ordered by index
  Reading<LinkMatrix> links;           // GPU x GPU, positions as in `gpus`
  Reading<bool> nvswitch_present;
  Reading<std::vector<Nic>> nics;
  Reading<std::vector<NumaNode>> numa_nodes;
  std::vector<std::string> notes;      // caveats from the sources ("GPUs 2-6 elided in input")
  std::vector<GpuEvent> events;        // kernel log lines and nvidia-smi warnings, in input order
  // Parts of the input that are missing or cut away, so what they would show is not judged (a
  // gpuvet collect file without its "### end" line or its nvidia-smi -q -x section): each one
  // makes the verdict incomplete. Empty when the input is whole.
  std::vector<std::string> not_read;
};

// Normalises a PCI bus id to "dddd:bb:dd.f" lowercase hex with a 4-digit domain
// ("00000000:18:00.0" -> "0000:18:00.0"). Returns the input unchanged if it does not parse.
std::string normalize_pci_bus_id(std::string_view bus_id);

// Position of the GPU with this index in machine.gpus, or -1.
int position_of_gpu(const Machine& machine, int gpu_index);

}  // namespace gpuvet::core
