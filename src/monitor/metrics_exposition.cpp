// /metrics: the per-GPU families (native, then DCGM names when asked), the alerts that fire and
// the daemon's own health and cost, in that order.
#include "monitor/metrics_exposition.hpp"

#include <set>
#include <string>
#include <tuple>

#include "monitor/metric_catalog.hpp"

namespace gpuvet::monitor {
namespace {

void append_alerts(const MonitorSnapshot& snapshot, std::string& out) {
  MetricFamily alert = metric_family("gpuvet_alert");
  // One series per (code, GPU, severity): two alerts of one code on one GPU (two links, say)
  // are one series, as Prometheus requires unique label sets.
  std::set<std::tuple<std::string, int, std::string>> seen;
  for (const auto& a : snapshot.alerts) {
    const std::string severity(core::to_string(a.severity));
    if (a.gpus.empty()) {
      if (seen.emplace(a.code, -1, severity).second) {
        alert.add({{"code", a.code}, {"severity", severity}}, 1.0);
      }
      continue;
    }
    for (int gpu : a.gpus) {
      if (seen.emplace(a.code, gpu, severity).second) {
        alert.add({{"code", a.code}, {"gpu", std::to_string(gpu)}, {"severity", severity}}, 1.0);
      }
    }
  }
  alert.write_to(out);
}

void append_daemon(const MonitorSnapshot& snapshot, const MetricsOptions& options, std::string& out) {
  const DaemonCost& cost = snapshot.cost;
  MetricFamily info = metric_family("gpuvet_monitor_info");
  MetricLabels info_labels{{"source", snapshot.source}, {"simulated", snapshot.simulated ? "true" : "false"}};
  if (!snapshot.hostname.empty()) info_labels.push_back({"hostname", snapshot.hostname});
  info.add(info_labels, 1.0);

  MetricFamily healthy = metric_family("gpuvet_monitor_healthy");
  healthy.add({}, snapshot.healthy ? 1.0 : 0.0);
  MetricFamily interval = metric_family("gpuvet_monitor_interval_seconds");
  interval.add({}, snapshot.interval_s);
  MetricFamily tick_at = metric_family("gpuvet_monitor_last_tick_timestamp_seconds");
  tick_at.add({}, static_cast<double>(snapshot.taken_unix_ms) / 1000.0);
  MetricFamily age = metric_family("gpuvet_monitor_snapshot_age_seconds");
  if (!snapshot.simulated && options.now_unix_ms > 0 && snapshot.taken_unix_ms > 0) {
    age.add({}, static_cast<double>(options.now_unix_ms - snapshot.taken_unix_ms) / 1000.0);
  }
  MetricFamily tick_duration = metric_family("gpuvet_monitor_tick_duration_seconds");
  tick_duration.add({}, cost.last_tick_duration_s);
  MetricFamily ticks = metric_family("gpuvet_monitor_ticks_total");
  ticks.add({}, cost.ticks_total);
  MetricFamily samples = metric_family("gpuvet_monitor_samples_total");
  samples.add({}, cost.samples_total);
  MetricFamily dropped = metric_family("gpuvet_monitor_samples_dropped_total");
  dropped.add({}, cost.samples_dropped_total);
  MetricFamily source_errors = metric_family("gpuvet_monitor_source_errors_total");
  source_errors.add({}, cost.source_errors_total);
  MetricFamily store_errors = metric_family("gpuvet_monitor_store_errors_total");
  store_errors.add({}, cost.store_errors_total);
  MetricFamily uptime = metric_family("gpuvet_monitor_uptime_seconds");
  uptime.add({}, cost.uptime_s);

  for (const MetricFamily* family : {&info, &healthy, &interval, &tick_at, &age, &tick_duration, &ticks, &samples,
                                     &dropped, &source_errors, &store_errors, &uptime}) {
    family->write_to(out);
  }
}

}  // namespace

std::string render_metrics(const MonitorSnapshot& snapshot, const MetricsOptions& options) {
  std::string out;
  out.reserve(16 * 1024 + snapshot.gpus.size() * 4096);
  append_native_gpu_metrics(snapshot, out);
  if (options.dcgm_names) append_dcgm_gpu_metrics(snapshot, out);
  append_alerts(snapshot, out);
  append_daemon(snapshot, options, out);
  return out;
}

}  // namespace gpuvet::monitor
