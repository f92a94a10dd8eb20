// State behind the fake libnvidia-ml.so.1: the simulated machine (gpuvet::sim) turned into the
// raw values NVML would return. Built at nvmlInit from GPUVET_FAKE_NVML_PROFILE / _FAULTS /
// _LOST_GPUS; the C entry points in fake_nvml.cpp only look values up here.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "backends/nvml/nvml_types.hpp"
#include "core/machine.hpp"

namespace gpuvet::fake_nvml {

namespace nv = gpuvet::nvml;

struct FakePort {
  int link = 0;
  std::optional<bool> active;
  std::optional<unsigned> version_code;      // nvmlNvlinkVersion_t
  std::optional<std::string> remote_bus_id;  // normalised
  std::optional<int> remote_type;            // nvmlIntNvLinkDeviceType_t
  std::optional<unsigned> speed_mbps;
};

struct FakeDevice {
  const core::Gpu* gpu = nullptr;
  int position = 0;
  bool lost = false;                              // GPU_IS_LOST for all but identity calls
  std::optional<unsigned> architecture;           // nvmlDeviceArchitecture_t
  std::optional<std::pair<int, int>> compute_capability;
  std::optional<std::uint64_t> reasons_mask;      // clocks-event reasons incl. idle
  std::optional<std::vector<unsigned long>> cpu_mask;
  std::optional<int> virtualization_mode;
  std::optional<int> pstate;                      // nvmlPstates_t
  std::optional<std::vector<FakePort>> ports;     // nullopt: NVLink not supported
  unsigned port_count = 0;                        // links 0..port_count-1 exist
};

struct FakeState {
  core::Machine machine;
  std::vector<FakeDevice> devices;
};

// Builds the state from the environment. On failure returns the message (bad profile, fault).
std::optional<std::string> build_state(FakeState& state);

// The PCIe topology level NVML would report between two GPU positions.
nv::nvmlGpuTopologyLevel_t topology_level(const FakeState& state, int a, int b);

// "0000:18:00.0" -> domain, bus, device; false when it does not parse.
bool parse_bus_id(const std::string& bus_id, unsigned& domain, unsigned& bus, unsigned& device);

}  // namespace gpuvet::fake_nvml
