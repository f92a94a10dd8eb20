// One GPU's burn-in telemetry fields read through NVML (internal to the NVML backend): what was
// probed as unsupported, which NVLink links to read and with which API, and one sample.
#pragma once

#include <array>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "backends/nvml/nvml_device.hpp"
#include "core/machine.hpp"
#include "core/telemetry.hpp"

namespace gpuvet::nvml {

struct TelemetryGpu {
  explicit TelemetryGpu(DeviceReader r) : reader(std::move(r)) {}
  DeviceReader reader;
  std::map<std::string, std::string> unsupported;  // field -> reason, filled while probing
  bool probing = false;
  std::vector<unsigned int> links;                  // active NVLink links
  bool nvlink_fields = false;                       // Hopper and newer: per-link fields 161-163
  std::string nvlink_reason;                        // why NVLink counters cannot be read at all
  std::string xid_reason;                           // why Xid events are not watched
  core::Reading<int> pcie_gen_max;                  // static: read once when the source opens
  core::Reading<int> pcie_width_max;
};

// The NVML calls behind several sample columns: the column names probe() reports for each.
inline constexpr std::pair<std::string_view, std::array<std::string_view, 4>> kMultiColumnFields[] = {
    {"utilization", {"util_gpu_pct", "util_mem_pct"}},
    {"fb_memory", {"fb_used_bytes", "fb_total_bytes"}},
    {"remapped_rows", {"remap_pending", "remap_failed", "remapped_rows_correctable", "remapped_rows_uncorrectable"}},
};

// Identity and limits of the GPU (name, UUID, bus id, enforced power limit, shutdown and
// slowdown temperatures, max SM clock).
core::BurninGpu burnin_gpu_info(TelemetryGpu& g, const core::Gpu& gpu);
// The link's maximum generation and width, for every sample (they do not change while it runs).
void init_pcie_max(TelemetryGpu& g, const core::Gpu& gpu);
// Active links and the counter API for this architecture (nvml-facts.md §1.9: per-link field ids
// 161-163 from Hopper on, nvmlDeviceGetNvLinkErrorCounter before; neither on Blackwell).
void init_nvlink(TelemetryGpu& g, const core::Gpu& gpu);
// Every field not yet found unsupported. While g.probing, records unsupported fields.
core::TelemetrySample read_sample(TelemetryGpu& g);

}  // namespace gpuvet::nvml
