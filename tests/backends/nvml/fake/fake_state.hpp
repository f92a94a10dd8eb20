// State behind the fake libnvidia-ml.so.1: the simulated machine (gpuvet::sim) turned into the
// raw values NVML would return, plus the simulator's production model (every GPU under load) for
// the live telemetry, run in wall time since nvmlInit. Built at nvmlInit from the environment:
// GPUVET_FAKE_NVML_PROFILE / _FAULTS / _LOST_GPUS / _SPEED (model seconds per wall second) and
// _HANG_GPU / _HANG_AFTER_S / _HANG_S (telemetry calls on that GPU block, outside the lock).
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "backends/nvml/nvml_types.hpp"
#include "core/machine.hpp"
#include "core/telemetry.hpp"

namespace gpuvet::sim {
class BurninModel;
}

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

// An NVML event set: the devices registered for Xid events.
struct FakeEventSet {
  std::vector<const FakeDevice*> xid_devices;
};

// The live side: the production model, the hang fault and the Xid events.
struct FakeTelemetry {
  std::shared_ptr<sim::BurninModel> model;
  std::chrono::steady_clock::time_point started;  // nvmlInit
  double speed = 1;                                // model seconds per wall second
  int hang_gpu = -1;                               // position whose telemetry calls hang; -1 none
  double hang_after_s = 0;                         // wall seconds after nvmlInit the hang begins
  double hang_s = 24 * 3600.0;                     // how long the hang lasts (calls block until its end)
  std::vector<std::pair<int, int>> xids;           // (position, Xid) from the model, not yet delivered
  std::vector<std::unique_ptr<FakeEventSet>> event_sets;
};

struct FakeState {
  core::Machine machine;
  std::vector<FakeDevice> devices;
  FakeTelemetry telemetry;
};

// Moves the model to the current wall time and returns the device's sample (absent readings
// when the model has none). Call under the fake's lock.
core::TelemetrySample live_sample(FakeState& state, const FakeDevice& device);
// The model has lost the device by now (a gpu-lost fault whose time has come). Under the lock.
bool model_lost(FakeState& state, const FakeDevice& device);
// Fills a telemetry field value (memory temperature, PCIe replays, NVLink DL errors) from `s`;
// leaves it NOT_SUPPORTED when the sample has no such reading.
void live_field_value(const core::TelemetrySample& s, nv::nvmlFieldValue_t& v);
// Wall seconds a telemetry call on `device` must block now (0: none). Under the lock.
double hang_seconds(const FakeState& state, const FakeDevice& device);

// Builds the state from the environment. On failure returns the message (bad profile, fault).
std::optional<std::string> build_state(FakeState& state);

// The PCIe topology level NVML would report between two GPU positions.
nv::nvmlGpuTopologyLevel_t topology_level(const FakeState& state, int a, int b);

// "0000:18:00.0" -> domain, bus, device; false when it does not parse.
bool parse_bus_id(const std::string& bus_id, unsigned& domain, unsigned& bus, unsigned& device);

}  // namespace gpuvet::fake_nvml
