// /metrics: one MonitorSnapshot rendered in the Prometheus text format. Native names are
// gpuvet_* in base units (docs/monitor.md "Prometheus endpoint"); --dcgm-names adds the
// dcgm-exporter names and labels beside them. Pure: called by the HTTP handler threads on a
// snapshot they hold, never touches the hardware or the clock.
#pragma once

#include <cstdint>
#include <string>

#include "monitor/metrics_text_writer.hpp"
#include "monitor/monitor_snapshot.hpp"

namespace gpuvet::monitor {

struct MetricsOptions {
  bool dcgm_names = false;         // also DCGM_FI_DEV_* with dcgm-exporter's labels
  // Wall clock when the scrape is answered; used for the snapshot's age. 0, or a simulated
  // snapshot (virtual time), exports no age.
  std::int64_t now_unix_ms = 0;
};

// The whole /metrics body: gpuvet_* per GPU, the alerts that fire (gpuvet_alert), the daemon's
// own cost, and with dcgm_names the DCGM_FI_* families. Readings that are absent (unsupported,
// not read yet, GPU lost) are left out, never written as 0.
std::string render_metrics(const MonitorSnapshot& snapshot, const MetricsOptions& options);

// The per-GPU families in gpuvet_* names, appended to `out` (metrics_native.cpp).
void append_native_gpu_metrics(const MonitorSnapshot& snapshot, std::string& out);
// The per-GPU families in dcgm-exporter's names and labels (metrics_dcgm.cpp).
void append_dcgm_gpu_metrics(const MonitorSnapshot& snapshot, std::string& out);

}  // namespace gpuvet::monitor
