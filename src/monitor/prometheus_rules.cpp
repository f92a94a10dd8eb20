// The monitor's alert rules as PromQL over /metrics' gpuvet_* names (see prometheus_rules.hpp).
// Peers are the GPUs of one scrape target (`job`, `instance`). Every limit is read from where the
// daemon, `trend` and `report --db` read it: the health judge's (analysis/health/health_limits.hpp),
// the trend judge's peer thresholds and the utilization rule's; no number is written twice.
// docs/monitor.md "Alerting rules" explains each choice.
#include "monitor/prometheus_rules.hpp"

#include <fmt/format.h>

#include "analysis/finding_catalog.hpp"
#include "analysis/finding_codes.hpp"
#include "analysis/health/health_limits.hpp"
#include "analysis/trend_judge.hpp"
#include "monitor/alert_windows.hpp"
#include "monitor/prometheus_rule_parts.hpp"
#include "monitor/xid_alert_severity.hpp"

namespace gpuvet::monitor {
namespace {

using namespace std::chrono_literals;
using core::Severity;

// Windows at --speed 1.
constexpr std::chrono::seconds kTrendWindow = 1h;        // temperature and clock against peers
constexpr std::chrono::seconds kStateFor = 5min;         // an unhealthy daemon

const analysis::health::HealthLimits kHealth{};
const analysis::TrendThresholds kPeers{};

std::chrono::seconds seconds_of(double s) { return std::chrono::seconds(static_cast<long long>(std::llround(s))); }
// A PromQL number: "100", "0.95".
std::string num(double v) { return fmt::format("{}", v); }

PrometheusRuleGroup peer_rules(const Scaler& scale) {
  // The daemon's window (alert_windows.hpp). avg_over_time cannot tell a full window from a series
  // that began a minute ago, so `for:` holds the alert as long again; the daemon waits for a full
  // window instead (docs/monitor.md "Alerting rules (Prometheus)").
  const std::string util = scale.range(kUtilizationWindow);
  const std::string per_gpu = "gpu:gpuvet_gpu_utilization_ratio:avg" + prometheus_duration(kUtilizationWindow);
  const std::string per_target = "instance:gpuvet_gpu_utilization_ratio:avg" + prometheus_duration(kUtilizationWindow);
  const std::string trend = scale.range(kTrendWindow);
  PrometheusRuleGroup g{"gpuvet-peers", 0s, {}};
  g.rules.push_back(record(per_gpu, "avg_over_time(gpuvet_gpu_utilization_ratio" + util + ")"));
  g.rules.push_back(record(per_target, "avg by (job, instance) (" + per_gpu + ")"));
  // "More than 20 % below the group's mean" read as relative: below 0.8 x the mean of all the
  // target's GPUs (itself included), while that mean is at least 50 % (the group is busy).
  g.rules.push_back(alert(
      "GpuvetUtilizationBelowPeers", analysis::code::utilization_below_peers, Severity::warn,
      per_gpu + "\n"
      "  < on (job, instance) group_left ()\n"
      "    (" + num(1 - analysis::kUtilBelowPeersShare) + " * " + per_target + ")\n"
      "and on (job, instance)\n"
      "  (" + per_target + " >= " + num(analysis::kUtilGroupBusyPct / 100) + ")",
      scale(kUtilizationWindow),
      "GPU {{ $labels.gpu }} on {{ $labels.instance }} is busy {{ $value | humanizePercentage }} of the time, "
      "more than " + num(100 * analysis::kUtilBelowPeersShare) + " % below the mean of its group"));

  for (const char* metric : {"gpuvet_gpu_utilization_ratio", "gpuvet_gpu_temperature_celsius", "gpuvet_sm_clock_hertz"}) {
    g.rules.push_back(record(fmt::format("gpu:{}:avg1h", metric), fmt::format("avg_over_time({}{})", metric, trend)));
    g.rules.push_back(record(fmt::format("instance:{}:median1h", metric),
                             fmt::format("quantile by (job, instance) (0.5, gpu:{}:avg1h)", metric)));
  }
  // "At the same load": the peers' median utilization is at least 50 % and the GPU's within 10
  // points of it (a card that idles is not hot or slow, it is idle).
  g.rules.push_back(record(
      "gpu:gpuvet_at_peer_load:1h",
      "abs(gpu:gpuvet_gpu_utilization_ratio:avg1h\n"
      "    - on (job, instance) group_left () instance:gpuvet_gpu_utilization_ratio:median1h) <= " +
          num(kPeers.same_load_points / 100) + "\n"
      "and on (job, instance)\n"
      "  (instance:gpuvet_gpu_utilization_ratio:median1h >= " + num(kPeers.busy_util_pct / 100) + ")"));
  const std::string hotter =
      "(gpu:gpuvet_gpu_temperature_celsius:avg1h\n"
      "  - on (job, instance) group_left () instance:gpuvet_gpu_temperature_celsius:median1h)";
  const std::string at_load = "\nand on (job, instance, gpu) gpu:gpuvet_at_peer_load:1h";
  const std::string hot_summary =
      "GPU {{ $labels.gpu }} on {{ $labels.instance }} runs {{ $value | printf \"%.1f\" }} °C hotter than "
      "its peers' median at the same load";
  const auto trend_for = scale(seconds_of(kPeers.min_out_s));  // the trend judge's "for at least 2 h"
  g.rules.push_back(alert("GpuvetHotterThanPeers", analysis::code::hotter_than_peers, Severity::warn,
                          hotter + " >= " + num(kPeers.hotter_warn_c) + " < " + num(kPeers.hotter_fail_c) + at_load, trend_for,
                          hot_summary));
  g.rules.push_back(alert("GpuvetMuchHotterThanPeers", analysis::code::hotter_than_peers, Severity::fail,
                          hotter + " >= " + num(kPeers.hotter_fail_c) + at_load, trend_for, hot_summary));
  const std::string slower =
      "(gpu:gpuvet_sm_clock_hertz:avg1h\n"
      "  / on (job, instance) group_left () instance:gpuvet_sm_clock_hertz:median1h)";
  const std::string slow_summary =
      "GPU {{ $labels.gpu }} on {{ $labels.instance }} runs its SM clock at {{ $value | humanizePercentage }} "
      "of its peers' median at the same load";
  const std::string slow_warn = num(1 - kPeers.slower_warn_share), slow_fail = num(1 - kPeers.slower_fail_share);
  g.rules.push_back(alert("GpuvetSlowerThanPeers", analysis::code::slower_than_peers, Severity::warn,
                          slower + " <= " + slow_warn + " > " + slow_fail + at_load, trend_for, slow_summary));
  g.rules.push_back(alert("GpuvetMuchSlowerThanPeers", analysis::code::slower_than_peers, Severity::fail,
                          slower + " <= " + slow_fail + at_load, trend_for, slow_summary));
  return g;
}

PrometheusRuleGroup hardware_rules(const Scaler& scale) {
  const std::string w = scale.range(kCounterWindow);
  PrometheusRuleGroup g{"gpuvet-hardware", 0s, {}};
  // DCGM's NVLink limits (catalogue nvlink_errors_growing): any growth warns; more than one
  // replay or recovery, or CRC errors at 100/s, fail.
  const std::string nvlink_fail = fmt::format(
      "increase(gpuvet_nvlink_replay_errors_total{0}) > 1\n"
      "or increase(gpuvet_nvlink_recovery_errors_total{0}) > 1\n"
      "or rate(gpuvet_nvlink_crc_flit_errors_total{0}) >= {1}\n"
      "or rate(gpuvet_nvlink_crc_data_errors_total{0}) >= {1}", w, num(kHealth.nvlink_crc_per_s));
  const std::string nvlink_any = fmt::format(
      "(increase(gpuvet_nvlink_crc_flit_errors_total{0}) > 0\n"
      " or increase(gpuvet_nvlink_crc_data_errors_total{0}) > 0\n"
      " or increase(gpuvet_nvlink_replay_errors_total{0}) > 0\n"
      " or increase(gpuvet_nvlink_recovery_errors_total{0}) > 0)", w);
  const std::string nvlink_summary =
      "GPU {{ $labels.gpu }} on {{ $labels.instance }}: NVLink {{ $labels.link }} error counters grew by "
      "{{ $value | printf \"%.0f\" }} in " + prometheus_duration(scale(kCounterWindow));
  g.rules.push_back(alert("GpuvetNvlinkErrorsGrowing", analysis::code::nvlink_errors_growing, Severity::warn,
                          nvlink_any + "\nunless on (job, instance, gpu, link)\n(" + nvlink_fail + ")", 0s,
                          nvlink_summary));
  g.rules.push_back(alert("GpuvetNvlinkErrorsGrowingFast", analysis::code::nvlink_errors_growing, Severity::fail, nvlink_fail, 0s,
                          "GPU {{ $labels.gpu }} on {{ $labels.instance }}: NVLink {{ $labels.link }} replays, "
                          "recoveries or CRC errors beyond DCGM's limits"));

  const std::string xid_new = fmt::format("and on (job, instance, gpu) (increase(gpuvet_xid_events_total{}) > 0)", w);
  const std::string xid_summary =
      "GPU {{ $labels.gpu }} on {{ $labels.instance }} reported Xid {{ $labels.xid }}; NVIDIA's action: "
      "{{ $labels.action }}";
  const std::string xid_next =
      "Follow NVIDIA's action for the Xid ({{ $labels.action }}); check dmesg around the time; if it recurs after "
      "a reset or reboot, ask for the GPU to be replaced.";
  // One rule per severity the daemon gives an Xid (xid_alert_severity.hpp), carrying that severity:
  // the rules file and the daemon agree on every Xid (Xid 13, an application fault, is info in both).
  for (const Severity severity : kXidAlertSeverities) {
    const char* name = severity == Severity::fail ? "GpuvetXidHardware" : severity == Severity::warn ? "GpuvetXid" : "GpuvetXidApplication";
    g.rules.push_back(alert(name, analysis::code::xid_event, severity,
                            fmt::format("gpuvet_last_xid_info{{severity=\"{}\"}}\n", core::to_string(severity)) + xid_new, 0s,
                            xid_summary, xid_next));
  }

  const std::string ecc_unc = fmt::format("increase(gpuvet_ecc_uncorrected_errors_total{}) > 0", w);
  g.rules.push_back(alert("GpuvetEccUncorrectedErrors", analysis::code::ecc_errors_new, Severity::fail, ecc_unc, 0s,
                          "GPU {{ $labels.gpu }} on {{ $labels.instance }}: {{ $value | printf \"%.0f\" }} new "
                          "uncorrected ECC errors"));
  g.rules.push_back(alert("GpuvetEccCorrectedErrors", analysis::code::ecc_errors_new, Severity::warn,
                          fmt::format("increase(gpuvet_ecc_corrected_errors_total{}) > 0\n"
                                      "unless on (job, instance, gpu) ({})", w, ecc_unc),
                          0s,
                          "GPU {{ $labels.gpu }} on {{ $labels.instance }}: {{ $value | printf \"%.0f\" }} new "
                          "corrected ECC errors"));
  g.rules.push_back(alert("GpuvetRowRemapPending", analysis::code::row_remap_pending, Severity::fail, "gpuvet_row_remap_pending == 1",
                          0s, "GPU {{ $labels.gpu }} on {{ $labels.instance }} has a row remap waiting for a GPU reset"));
  g.rules.push_back(alert("GpuvetRetiredPagesPending", analysis::code::retired_pages, Severity::fail,
                          "gpuvet_retired_pages_pending == 1", 0s,
                          "GPU {{ $labels.gpu }} on {{ $labels.instance }} has a page retirement waiting for a reboot"));
  const std::string dbe_new = fmt::format("delta(gpuvet_retired_pages{{cause=\"double_bit_ecc\"}}{}) > 0", w);
  g.rules.push_back(alert("GpuvetRetiredPagesDoubleBit", analysis::code::retired_pages, Severity::fail, dbe_new, 0s,
                          "GPU {{ $labels.gpu }} on {{ $labels.instance }}: {{ $value | printf \"%.0f\" }} pages retired "
                          "after double-bit errors"));
  g.rules.push_back(alert("GpuvetRetiredPagesSingleBit", analysis::code::retired_pages, Severity::warn,
                          fmt::format("delta(gpuvet_retired_pages{{cause=\"single_bit_ecc\"}}{}) > 0\n"
                                      "unless on (job, instance, gpu) ({})", w, dbe_new),
                          0s,
                          "GPU {{ $labels.gpu }} on {{ $labels.instance }}: {{ $value | printf \"%.0f\" }} pages retired "
                          "after single-bit errors"));
  // DCGM's 8 per minute warns; replays below it are said (info), as the health judge says them.
  const std::string pcie_over =
      fmt::format("rate(gpuvet_pcie_replays_total{}) * 60 > {}", w, num(kHealth.pcie_replays_per_min));
  g.rules.push_back(alert("GpuvetPcieReplays", analysis::code::pcie_replays, Severity::warn, pcie_over, 0s,
                          "GPU {{ $labels.gpu }} on {{ $labels.instance }}: {{ $value | printf \"%.1f\" }} PCIe "
                          "replays per minute (DCGM's limit: " + num(kHealth.pcie_replays_per_min) + ")"));
  g.rules.push_back(alert("GpuvetPcieReplaysSeen", analysis::code::pcie_replays, Severity::info,
                          fmt::format("increase(gpuvet_pcie_replays_total{}) > 0\n"
                                      "unless on (job, instance, gpu) ({})", w, pcie_over),
                          0s,
                          "GPU {{ $labels.gpu }} on {{ $labels.instance }}: {{ $value | printf \"%.0f\" }} PCIe "
                          "replays, under DCGM's limit"));
  // PCIe link below its maximum (catalogue pcie_link_degraded), held for the health judge's
  // pcie_degraded_min_s: lanes at any load; the generation only while the GPU is busy
  // (utilization at least busy_util_pct), since an idle GPU lowers it to save power.
  const auto link_for = scale(seconds_of(kHealth.pcie_degraded_min_s));
  const std::string link_summary =
      "GPU {{ $labels.gpu }} on {{ $labels.instance }}: PCIe link below its maximum ";
  g.rules.push_back(alert("GpuvetPcieLinkNarrow", analysis::code::pcie_link_degraded, Severity::fail,
                          "gpuvet_pcie_link_width < gpuvet_pcie_link_max_width", link_for,
                          link_summary + "(x{{ $value | printf \"%.0f\" }} lanes)"));
  g.rules.push_back(alert("GpuvetPcieLinkSlowWhileBusy", analysis::code::pcie_link_degraded, Severity::warn,
                          "gpuvet_pcie_link_generation < gpuvet_pcie_link_max_generation\n"
                          "and on (job, instance, gpu) gpuvet_gpu_utilization_ratio >= " + num(kHealth.busy_util_pct / 100),
                          link_for, link_summary + "while busy (Gen {{ $value | printf \"%.0f\" }})"));
  // Row remapping (catalogue row_remap_failure, remapped_rows_growing).
  g.rules.push_back(alert("GpuvetRowRemapFailure", analysis::code::row_remap_failure, Severity::fail, "gpuvet_row_remap_failed == 1",
                          0s, "GPU {{ $labels.gpu }} on {{ $labels.instance }}: a row remap failed (no spare row left)"));
  const std::string unc_new =
      fmt::format("increase(gpuvet_remapped_rows_total{{cause=\"uncorrectable\"}}{}) > 0", w);
  g.rules.push_back(alert("GpuvetRemappedRowsUncorrectable", analysis::code::remapped_rows_growing, Severity::fail, unc_new, 0s,
                          "GPU {{ $labels.gpu }} on {{ $labels.instance }}: {{ $value | printf \"%.0f\" }} rows "
                          "remapped after uncorrectable errors"));
  g.rules.push_back(alert("GpuvetRemappedRows", analysis::code::remapped_rows_growing, Severity::warn,
                          fmt::format("increase(gpuvet_remapped_rows_total{{cause=\"correctable\"}}{}) > 0\n"
                                      "unless on (job, instance, gpu) ({})", w, unc_new),
                          0s,
                          "GPU {{ $labels.gpu }} on {{ $labels.instance }}: {{ $value | printf \"%.0f\" }} rows "
                          "remapped after correctable errors"));
  // Throttling other than the power cap (catalogue throttle_reasons).
  const std::string throttle_summary =
      "GPU {{ $labels.gpu }} on {{ $labels.instance }} has its clocks held back by {{ $labels.reason }}";
  g.rules.push_back(alert(
      "GpuvetThrottledByHardware", analysis::code::throttle_reasons, Severity::fail,
      "gpuvet_clocks_event_reason_active{reason=~\"hw_slowdown|hw_thermal_slowdown|hw_power_brake\"} == 1",
      scale(seconds_of(kHealth.throttle_min_s)), throttle_summary));
  g.rules.push_back(alert("GpuvetThermalSlowdown", analysis::code::throttle_reasons, Severity::warn,
                          "gpuvet_clocks_event_reason_active{reason=\"sw_thermal_slowdown\"} == 1",
                          scale(seconds_of(kHealth.throttle_min_s)), throttle_summary));
  g.rules.push_back(alert("GpuvetGpuLost", analysis::code::gpu_lost, Severity::fail, "gpuvet_gpu_lost == 1", 0s,
                          "GPU {{ $labels.gpu }} on {{ $labels.instance }} fell off the bus or stopped answering"));
  g.rules.push_back(alert("GpuvetMonitorUnhealthy", "", Severity::warn, "gpuvet_monitor_healthy == 0",
                          scale(kStateFor), "gpuvet monitor on {{ $labels.instance }} is not sampling on time",
                          "Read the reason at /healthz and the daemon's log (journalctl -u gpuvet-monitor)."));
  return g;
}

// A YAML double-quoted scalar.
std::string quoted(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      default: out += c;
    }
  }
  return out + "\"";
}

// A YAML literal block scalar (`|-`) at the given indentation.
std::string block(const std::string& text, const std::string& indent) {
  std::string out = "|-\n" + indent;
  for (char c : text) {
    out += c;
    if (c == '\n') out += indent;
  }
  return out;
}

}  // namespace

std::string prometheus_duration(std::chrono::seconds duration) {
  const long long s = duration.count() < 1 ? 1 : duration.count();
  if (s % 3600 == 0) return fmt::format("{}h", s / 3600);
  if (s % 60 == 0) return fmt::format("{}m", s / 60);
  return fmt::format("{}s", s);
}

std::vector<PrometheusRuleGroup> prometheus_rule_groups(const RulesOptions& options) {
  const Scaler scale(options.speed);
  return {peer_rules(scale), hardware_rules(scale), baseline_drift_rules(scale)};
}

std::string prometheus_alert_rules(const RulesOptions& options) {
  std::string out =
      "# Prometheus alerting rules for gpuvet monitor's /metrics (generated: gpuvet monitor rules).\n"
      "# Labels: code = finding code (docs/findings.md), severity = warn | fail.\n";
  if (options.speed != 1.0) {
    out += fmt::format("# Windows and for: divided by {} to match gpuvet monitor --sim --speed {}.\n", options.speed,
                       options.speed);
  }
  out += "groups:\n";
  for (const auto& group : prometheus_rule_groups(options)) {
    out += "  - name: " + group.name + "\n";
    if (group.interval.count() > 0) out += "    interval: " + prometheus_duration(group.interval) + "\n";
    out += "    rules:\n";
    for (const auto& rule : group.rules) {
      if (!rule.record.empty()) {
        out += "      - record: " + rule.record + "\n";
        out += "        expr: " + block(rule.expr, "          ") + "\n";
        continue;
      }
      out += "      - alert: " + rule.alert + "\n";
      out += "        expr: " + block(rule.expr, "          ") + "\n";
      if (rule.for_.count() > 0) out += "        for: " + prometheus_duration(rule.for_) + "\n";
      out += "        labels:\n";
      if (!rule.code.empty()) out += "          code: " + rule.code + "\n";
      out += "          severity: " + std::string(core::to_string(rule.severity)) + "\n";
      out += "        annotations:\n";
      out += "          summary: " + quoted(rule.summary) + "\n";
      std::string next = rule.next_step;
      const analysis::FindingInfo* info = rule.code.empty() ? nullptr : analysis::find_finding_info(rule.code);
      if (next.empty() && info != nullptr) next = info->next_step;
      if (!next.empty()) out += "          next_step: " + quoted(next) + "\n";
    }
  }
  return out;
}

}  // namespace gpuvet::monitor
