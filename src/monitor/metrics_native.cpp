// The per-GPU gpuvet_* families: Prometheus naming rules (base units: celsius, hertz, watts,
// joules; utilization as a 0..1 ratio; `_total` for counters). A reading that is absent is left
// out; a lost GPU or one not sampled yet keeps only its identity, lost flag, Xid count and (lost) the time it last answered.
#include <array>
#include <cstdint>

#include "analysis/xid_catalog.hpp"
#include "monitor/xid_alert_severity.hpp"
#include "core/telemetry.hpp"
#include "monitor/metric_catalog.hpp"
#include "monitor/metrics_exposition.hpp"

namespace gpuvet::monitor {
namespace {

MetricLabels gpu_labels(const GpuNow& now, const std::string& hostname) {
  MetricLabels labels{{"gpu", std::to_string(now.gpu.index)}};
  if (now.gpu.uuid) labels.push_back({"uuid", *now.gpu.uuid});
  if (now.gpu.pci_bus_id) labels.push_back({"pci_bus_id", *now.gpu.pci_bus_id});
  if (now.gpu.name) labels.push_back({"model", *now.gpu.name});
  if (!hostname.empty()) labels.push_back({"hostname", hostname});
  return labels;
}

MetricLabels with(MetricLabels labels, std::string name, std::string value) {
  labels.push_back({std::move(name), std::move(value)});
  return labels;
}

template <class T>
void add_scaled(MetricFamily& family, const MetricLabels& labels, const core::Reading<T>& reading,
                double scale) {
  if (reading) family.add(labels, static_cast<double>(*reading) * scale);
}

void add_counter(MetricFamily& family, const MetricLabels& labels,
                 const core::Reading<std::uint64_t>& reading) {
  if (reading) family.add(labels, *reading);
}

void add_flag(MetricFamily& family, const MetricLabels& labels, const core::Reading<bool>& reading) {
  if (reading) family.add(labels, *reading ? 1.0 : 0.0);
}

// NVIDIA's immediate action for an Xid, as a label value (analysis/xid_catalog.hpp).
std::string xid_action_label(int xid) {
  const analysis::XidInfo* info = analysis::find_xid(xid);
  if (info == nullptr) return "unknown";
  switch (info->action) {
    case analysis::XidAction::restart_app: return "restart_app";
    case analysis::XidAction::ignore: return "ignore";
    case analysis::XidAction::reset_gpu: return "reset_gpu";
    case analysis::XidAction::reboot: return "reboot";
    case analysis::XidAction::contact_support: return "contact_support";
  }
  return "unknown";
}

std::string xid_severity_label(int xid) { return std::string(core::to_string(xid_alert_severity(xid))); }


}  // namespace

void append_native_gpu_metrics(const MonitorSnapshot& snapshot, std::string& out) {
  MetricFamily lost = metric_family("gpuvet_gpu_lost");
  MetricFamily sampled_at = metric_family("gpuvet_gpu_last_sample_timestamp_seconds");
  MetricFamily temp = metric_family("gpuvet_gpu_temperature_celsius");
  MetricFamily mem_temp = metric_family("gpuvet_memory_temperature_celsius");
  MetricFamily sm_clock = metric_family("gpuvet_sm_clock_hertz");
  MetricFamily mem_clock = metric_family("gpuvet_memory_clock_hertz");
  MetricFamily power = metric_family("gpuvet_power_usage_watts");
  MetricFamily energy = metric_family("gpuvet_energy_consumption_joules_total");
  MetricFamily util = metric_family("gpuvet_gpu_utilization_ratio");
  MetricFamily mem_util = metric_family("gpuvet_memory_utilization_ratio");
  MetricFamily clocks_event = metric_family("gpuvet_clocks_event_reason_active");
  MetricFamily pstate = metric_family("gpuvet_performance_state");
  MetricFamily ecc_corrected = metric_family("gpuvet_ecc_corrected_errors_total");
  MetricFamily ecc_uncorrected = metric_family("gpuvet_ecc_uncorrected_errors_total");
  MetricFamily retired = metric_family("gpuvet_retired_pages");
  MetricFamily retired_pending = metric_family("gpuvet_retired_pages_pending");
  MetricFamily remap_pending = metric_family("gpuvet_row_remap_pending");
  MetricFamily pcie_replays = metric_family("gpuvet_pcie_replays_total");
  MetricFamily crc_flit = metric_family("gpuvet_nvlink_crc_flit_errors_total");
  MetricFamily crc_data = metric_family("gpuvet_nvlink_crc_data_errors_total");
  MetricFamily replay = metric_family("gpuvet_nvlink_replay_errors_total");
  MetricFamily recovery = metric_family("gpuvet_nvlink_recovery_errors_total");
  MetricFamily xid_total = metric_family("gpuvet_xid_events_total");
  MetricFamily last_xid = metric_family("gpuvet_last_xid");
  MetricFamily last_xid_info = metric_family("gpuvet_last_xid_info");
  MetricFamily power_limit = metric_family("gpuvet_power_limit_watts");
  MetricFamily slowdown = metric_family("gpuvet_slowdown_temperature_celsius");
  MetricFamily shutdown = metric_family("gpuvet_shutdown_temperature_celsius");
  MetricFamily max_clock = metric_family("gpuvet_sm_clock_max_hertz");
  MetricFamily fb_used = metric_family("gpuvet_framebuffer_used_bytes");
  MetricFamily fb_total = metric_family("gpuvet_framebuffer_total_bytes");
  MetricFamily link_gen = metric_family("gpuvet_pcie_link_generation");
  MetricFamily link_width = metric_family("gpuvet_pcie_link_width");
  MetricFamily link_max_gen = metric_family("gpuvet_pcie_link_max_generation");
  MetricFamily link_max_width = metric_family("gpuvet_pcie_link_max_width");
  MetricFamily remapped = metric_family("gpuvet_remapped_rows_total");
  MetricFamily remap_failed = metric_family("gpuvet_row_remap_failed");
  MetricFamily baseline_temp = metric_family("gpuvet_baseline_temperature_celsius");
  MetricFamily baseline_clock = metric_family("gpuvet_baseline_sm_clock_hertz");
  MetricFamily baseline_power = metric_family("gpuvet_baseline_power_watts");

  for (const auto& now : snapshot.gpus) {
    const MetricLabels labels = gpu_labels(now, snapshot.hostname);
    lost.add(labels, now.lost ? 1.0 : 0.0);
    if (now.xid_watched) {  // unwatched: the series are absent (unknown), never 0
      xid_total.add(labels, now.xid_total);
      last_xid.add(labels, static_cast<double>(now.last_xid));
    }
    if (now.xid_watched && now.last_xid != 0) {
      MetricLabels xid_labels = with(labels, "xid", std::to_string(now.last_xid));
      xid_labels.push_back({"action", xid_action_label(now.last_xid)});
      xid_labels.push_back({"severity", xid_severity_label(now.last_xid)});
      last_xid_info.add(xid_labels, 1.0);
    }
    add_scaled(power_limit, labels, now.gpu.power_limit_w, 1.0);
    add_scaled(slowdown, labels, now.gpu.slowdown_temp_c, 1.0);
    add_scaled(shutdown, labels, now.gpu.shutdown_temp_c, 1.0);
    add_scaled(max_clock, labels, now.gpu.max_sm_clock_mhz, 1e6);
    if (now.baseline) {  // the acceptance bundle's values: known whether or not the GPU answers now
      if (now.baseline->temp_c) baseline_temp.add(labels, *now.baseline->temp_c);
      if (now.baseline->sm_clock_mhz) baseline_clock.add(labels, *now.baseline->sm_clock_mhz * 1e6);
      if (now.baseline->power_w) baseline_power.add(labels, *now.baseline->power_w);
    }
    // When it last answered, kept once it is lost: a dashboard shows since when.
    if (now.last_answered_unix_ms > 0) sampled_at.add(labels, static_cast<double>(now.last_answered_unix_ms) / 1000.0);
    if (now.lost || !now.has_sample) continue;  // its last readings would be stale or never were

    const core::TelemetrySample& s = now.latest;
    add_scaled(temp, labels, s.gpu_temp_c, 1.0);
    add_scaled(mem_temp, labels, s.mem_temp_c, 1.0);
    add_scaled(sm_clock, labels, s.sm_clock_mhz, 1e6);
    add_scaled(mem_clock, labels, s.mem_clock_mhz, 1e6);
    add_scaled(power, labels, s.power_w, 1.0);
    add_scaled(energy, labels, s.energy_j, 1.0);
    add_scaled(util, labels, s.util_gpu_pct, 0.01);
    add_scaled(mem_util, labels, s.util_mem_pct, 0.01);
    if (s.clocks_event_reasons) {
      for (const auto& reason : core::clocks_event::kTable) {
        const std::uint64_t bit = reason.bit;
        clocks_event.add(with(labels, "reason", core::clocks_event_name(bit)),
                         (*s.clocks_event_reasons & bit) != 0 ? 1.0 : 0.0);
      }
    }
    add_scaled(pstate, labels, s.pstate, 1.0);
    add_counter(ecc_corrected, labels, s.ecc_corrected);
    add_counter(ecc_uncorrected, labels, s.ecc_uncorrected);
    add_scaled(retired, with(labels, "cause", "single_bit_ecc"), s.retired_pages_sbe, 1.0);
    add_scaled(retired, with(labels, "cause", "double_bit_ecc"), s.retired_pages_dbe, 1.0);
    add_flag(retired_pending, labels, s.retired_pages_pending);
    add_flag(remap_pending, labels, s.remap_pending);
    add_counter(pcie_replays, labels, s.pcie_replays);
    if (s.nvlink) {
      for (const auto& link : *s.nvlink) {
        const MetricLabels link_labels = with(labels, "link", std::to_string(link.link));
        add_counter(crc_flit, link_labels, link.crc_flit);
        add_counter(crc_data, link_labels, link.crc_data);
        add_counter(replay, link_labels, link.replay);
        add_counter(recovery, link_labels, link.recovery);
      }
    }
    add_counter(fb_used, labels, s.fb_used_bytes);  // exact bytes (the uint64 overload)
    add_counter(fb_total, labels, s.fb_total_bytes);
    add_scaled(link_gen, labels, s.pcie_link_gen, 1.0);
    add_scaled(link_width, labels, s.pcie_link_width, 1.0);
    add_scaled(link_max_gen, labels, s.pcie_link_gen_max, 1.0);
    add_scaled(link_max_width, labels, s.pcie_link_width_max, 1.0);
    add_counter(remapped, with(labels, "cause", "correctable"), s.remapped_rows_correctable);
    add_counter(remapped, with(labels, "cause", "uncorrectable"), s.remapped_rows_uncorrectable);
    add_flag(remap_failed, labels, s.remap_failed);
  }

  for (const MetricFamily* family :
       {&lost, &sampled_at, &temp, &mem_temp, &sm_clock, &mem_clock, &power, &energy, &util, &mem_util,
        &clocks_event, &pstate, &ecc_corrected, &ecc_uncorrected, &retired, &retired_pending, &remap_pending,
        &pcie_replays, &crc_flit, &crc_data, &replay, &recovery, &xid_total, &last_xid, &last_xid_info, &power_limit,
        &slowdown, &shutdown, &max_clock, &fb_used, &fb_total, &link_gen, &link_width, &link_max_gen, &link_max_width,
        &remapped, &remap_failed, &baseline_temp, &baseline_clock, &baseline_power}) {
    family->write_to(out);
  }
}

}  // namespace gpuvet::monitor
