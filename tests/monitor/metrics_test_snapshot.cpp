// The endpoint tests' snapshot (see metrics_test_snapshot.hpp).
#include "metrics_test_snapshot.hpp"

#include <string>

namespace gpuvet::monitor::testing {

MonitorSnapshot full_snapshot() {
  MonitorSnapshot s;
  s.hostname = "node-a";
  s.source = "simulated: hgx-h100-8x";
  s.simulated = false;
  s.interval_s = 1.0;
  s.taken_unix_ms = 1'764'610'380'000;  // 2025-12-01T17:33:00Z
  s.healthy = true;
  for (int g = 0; g < 8; ++g) {
    GpuNow now;
    now.gpu.index = g;
    now.gpu.name = std::string("NVIDIA H100 80GB HBM3");
    now.gpu.uuid = "GPU-0000000" + std::to_string(g) + "-aaaa-bbbb-cccc-dddddddddddd";
    now.gpu.pci_bus_id = "00000000:" + std::to_string(10 + g) + ":00.0";
    now.gpu.power_limit_w = 700.0;
    now.gpu.shutdown_temp_c = 92.0;
    now.gpu.slowdown_temp_c = 89.0;
    now.gpu.max_sm_clock_mhz = 1980.0;
    now.has_sample = g != 6;
    now.lost = g == 5;
    // GPU 5 last answered a minute before it was found lost; GPU 6 never did.
    if (now.has_sample) now.last_answered_unix_ms = now.lost ? s.taken_unix_ms - 60'000 : s.taken_unix_ms;
    core::TelemetrySample& t = now.latest;
    t.gpu = g;
    t.unix_ms = s.taken_unix_ms;
    t.gpu_temp_c = 60.0 + g;
    t.sm_clock_mhz = 1980.0;
    t.mem_clock_mhz = 2619.0;
    t.power_w = 650.5;
    t.util_gpu_pct = g == 3 ? 35.0 : 97.0;
    t.util_mem_pct = 40.0;
    t.clocks_event_reasons = core::clocks_event::sw_power_cap;
    t.pstate = 0;
    t.ecc_corrected = std::uint64_t{3};
    t.ecc_uncorrected = std::uint64_t{0};
    t.retired_pages_sbe = 0;
    t.retired_pages_dbe = 0;
    t.retired_pages_pending = false;
    t.remap_pending = false;
    t.pcie_replays = std::uint64_t{0};
    t.fb_total_bytes = std::uint64_t{81559} << 20;
    t.fb_used_bytes = std::uint64_t{40000} << 20;
    t.pcie_link_gen = g == 2 ? 4 : 5;  // GPU 2 downtrained
    t.pcie_link_width = 16;
    t.pcie_link_gen_max = 5;
    t.pcie_link_width_max = 16;
    t.remapped_rows_correctable = std::uint64_t{g == 4 ? 2u : 0u};
    t.remapped_rows_uncorrectable = std::uint64_t{0};
    t.remap_failed = false;
    if (g == 7) {
      // An old driver: no remapped rows, no PCIe link readings.
      t.remapped_rows_correctable = t.remapped_rows_uncorrectable = core::Absent{"nvmlDeviceGetRemappedRows not exported"};
      t.remap_failed = core::Absent{"nvmlDeviceGetRemappedRows not exported"};
      t.pcie_link_gen = core::Absent{"NVML_ERROR_NOT_SUPPORTED"};
      t.mem_temp_c = core::Reading<double>::absent("not supported by this GPU");
      t.energy_j = core::Reading<double>::absent("not supported by this GPU");
      t.nvlink = core::Reading<std::vector<core::NvLinkErrorSample>>::absent("NVLink counters not supported");
    } else {
      t.mem_temp_c = 70.0;
      t.energy_j = 123456.789;
      std::vector<core::NvLinkErrorSample> links;
      for (int l = 0; l < 2; ++l) {
        core::NvLinkErrorSample link;
        link.link = l;
        link.crc_flit = std::uint64_t(g == 1 ? 40 + l : 0);
        link.crc_data = std::uint64_t{0};
        link.replay = std::uint64_t(g == 2 ? 5 : 0);
        link.recovery = std::uint64_t{0};
        links.push_back(link);
      }
      t.nvlink = links;
    }
    // The acceptance bundle (--baseline) has burn-in results for GPUs 0..5, not for 6 and 7;
    // GPU 1 passed without a power chart.
    if (g <= 5) now.baseline = core::TrendBaselineGpu{g, 68.0 + g * 0.5, 1980.0, g == 1 ? std::nullopt : std::optional(690.0)};
    if (g == 4) {
      now.xid_total = 2;
      now.last_xid = 79;
    }
    s.gpus.push_back(now);
  }
  MonitorAlert lag;
  lag.code = "utilization_below_peers";
  lag.severity = core::Severity::warn;
  lag.gpus = {3};
  lag.since_unix_ms = 1'764'606'780'250;  // 2025-12-01T16:33:00.250Z
  lag.message = "GPU 3 busy 35 % vs the group's 89 %";
  lag.next_step = "Check its links";
  lag.evidence = {{"window", "30m"}};
  s.alerts.push_back(lag);
  MonitorAlert nvlink;
  nvlink.code = "nvlink_errors_growing";
  nvlink.severity = core::Severity::fail;
  nvlink.gpus = {1, 2};
  nvlink.since_unix_ms = s.taken_unix_ms;
  nvlink.message = "NVLink \"CRC\" errors growing";
  s.alerts.push_back(nvlink);
  s.cost.last_tick_duration_s = 0.0012;
  s.cost.ticks_total = 3600;
  s.cost.samples_total = 28800;
  s.cost.samples_dropped_total = 1;
  s.cost.source_errors_total = 2;
  s.cost.uptime_s = 3600;
  return s;
}

}  // namespace gpuvet::monitor::testing
