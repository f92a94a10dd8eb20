// What was accepted, by name: every GPU's serial, UUID, bus id, VBIOS and board part number, and
// the software the machine ran (driver, CUDA, NCCL, fabric manager, kernel, OS). Written to the
// bundle's versions.json and the reports; an unknown value keeps the reason it is unknown.
#pragma once

#include <string>
#include <vector>

#include "core/machine.hpp"
#include "core/reading.hpp"

namespace gpuvet::core {

// One piece of software. Keys are stable (versions.json): driver, cuda_driver_api, cuda_toolkit,
// nccl, cublas, fabric_manager, kernel, os.
struct SoftwareVersion {
  std::string key;
  std::string title;            // "NVIDIA driver"
  Reading<std::string> value;   // "565.57.01", or absent with the reason ("no fabric manager found")
  std::string source;           // where it was read: "NVML", "/proc/sys/kernel/osrelease", "simulator profile X"
};

struct GpuIdentity {
  int index = 0;
  Reading<std::string> name;
  Reading<std::string> serial;
  Reading<std::string> uuid;
  Reading<std::string> pci_bus_id;
  Reading<std::string> vbios;
  Reading<std::string> board_part_number;
};

struct MachineIdentity {
  std::string source;      // the machine source: "live (NVML + sysfs)", "simulated: hgx-h100-8x"
  bool simulated = false;
  Reading<std::string> hostname;
  std::vector<SoftwareVersion> software;  // driver and CUDA driver API first, then the host's
  std::vector<GpuIdentity> gpus;          // ordered by index
};

// The identity of `machine`: its GPUs, the driver and CUDA driver API version the machine source
// reported (NVML, or the simulator profile), then `host_software` in the order given. A GPU field
// the source did not report stays absent with the source's reason.
MachineIdentity identity_of(const Machine& machine, std::vector<SoftwareVersion> host_software);

// The value, or "unknown (REASON)" for an absent one: never empty.
std::string identity_text(const Reading<std::string>& value);

}  // namespace gpuvet::core
