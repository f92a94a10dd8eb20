// Burn-in telemetry from NVML (nvml_telemetry_source.cpp): per GPU temperatures, clocks, power,
// energy, utilization, clocks-event reasons, pstate, ECC, retired pages, row remaps, PCIe replays
// and NVLink error counters, plus Xid events from an NVML event set on its own thread.
#pragma once

#include <memory>
#include <string>

#include "backends/api/telemetry_source.hpp"
#include "core/error.hpp"

namespace gpuvet::nvml {

// Loads `library` (soname or path) and initialises NVML. Environment error when NVML is missing
// or finds no GPU. Read-only: only queries, never a setter.
core::Result<std::unique_ptr<api::TelemetrySource>> open_nvml_telemetry(const std::string& library);

}  // namespace gpuvet::nvml
