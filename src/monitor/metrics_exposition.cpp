// /metrics: the per-GPU families (native, then DCGM names when asked), the alerts that fire and
// the daemon's own health and cost, in that order.
#include "monitor/metrics_exposition.hpp"

#include <set>
#include <string>
#include <tuple>

namespace gpuvet::monitor {
namespace {

void append_alerts(const MonitorSnapshot& snapshot, std::string& out) {
  MetricFamily alert("gpuvet_alert", MetricType::gauge,
                     "1 for each alert that fires now, by finding code (docs/findings.md), GPU and severity.");
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
  using T = MetricType;
  const DaemonCost& cost = snapshot.cost;
  MetricFamily info("gpuvet_monitor_info", T::gauge, "The monitor daemon: where its readings come from (always 1).");
  MetricLabels info_labels{{"source", snapshot.source}, {"simulated", snapshot.simulated ? "true" : "false"}};
  if (!snapshot.hostname.empty()) info_labels.push_back({"hostname", snapshot.hostname});
  info.add(info_labels, 1.0);

  MetricFamily healthy("gpuvet_monitor_healthy", T::gauge,
                       "1 when sampling runs and the last tick was on time, else 0 (/healthz says why).");
  healthy.add({}, snapshot.healthy ? 1.0 : 0.0);
  MetricFamily interval("gpuvet_monitor_interval_seconds", T::gauge, "Sampling interval.");
  interval.add({}, snapshot.interval_s);
  MetricFamily tick_at("gpuvet_monitor_last_tick_timestamp_seconds", T::gauge,
                       "When the last tick sampled (Unix time; virtual time under --sim).");
  tick_at.add({}, static_cast<double>(snapshot.taken_unix_ms) / 1000.0);
  MetricFamily age("gpuvet_monitor_snapshot_age_seconds", T::gauge,
                   "How old the served readings are at scrape time (not exported under --sim: virtual time).");
  if (!snapshot.simulated && options.now_unix_ms > 0 && snapshot.taken_unix_ms > 0) {
    age.add({}, static_cast<double>(options.now_unix_ms - snapshot.taken_unix_ms) / 1000.0);
  }
  MetricFamily tick_duration("gpuvet_monitor_tick_duration_seconds", T::gauge,
                             "Wall time the last tick took to sample every GPU.");
  tick_duration.add({}, cost.last_tick_duration_s);
  MetricFamily ticks("gpuvet_monitor_ticks_total", T::counter, "Sampling ticks since the daemon started.");
  ticks.add({}, cost.ticks_total);
  MetricFamily samples("gpuvet_monitor_samples_total", T::counter, "GPU samples taken since the daemon started.");
  samples.add({}, cost.samples_total);
  MetricFamily dropped("gpuvet_monitor_samples_dropped_total", T::counter,
                       "Ticks skipped because the previous one ran late.");
  dropped.add({}, cost.samples_dropped_total);
  MetricFamily source_errors("gpuvet_monitor_source_errors_total", T::counter,
                             "NVML (or simulator) calls that failed or timed out.");
  source_errors.add({}, cost.source_errors_total);
  MetricFamily store_errors("gpuvet_monitor_store_errors_total", T::counter, "History writes that failed.");
  store_errors.add({}, cost.store_errors_total);
  MetricFamily uptime("gpuvet_monitor_uptime_seconds", T::gauge, "Time since the daemon started sampling.");
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
