// Text and JSON rendering of a burn-in report. In JSON an unknown value is null with its reason
// under "absent", as in the machine report.
#include "report/burnin_report.hpp"

#include <fmt/format.h>

#include <cmath>
#include <map>
#include <nlohmann/json.hpp>

#include "report/burnin_traffic.hpp"
#include "report/finding_json.hpp"
#include "report/text_blocks.hpp"
#include "report/text_table.hpp"
#include "report/text_wrap.hpp"

namespace gpuvet::report {

using nlohmann::ordered_json;

namespace {

std::string hms(double seconds) {
  const auto total = static_cast<long long>(std::llround(std::max(0.0, seconds)));
  return fmt::format("{:02}:{:02}:{:02}", total / 3600, (total / 60) % 60, total % 60);
}

template <class T>
void put(ordered_json& j, ordered_json& absent, const char* key, const core::Reading<T>& r) {
  if (r.known()) {
    j[key] = r.value();
  } else {
    j[key] = nullptr;
    absent[key] = r.reason();
  }
}

const core::BurninGpuSummary* summary_of(const core::BurninAssessment& a, int gpu) {
  for (const auto& s : a.gpus) {
    if (s.gpu == gpu) return &s;
  }
  return nullptr;
}

ordered_json gpu_json(const BurninReport& report, const core::BurninGpu& gpu) {
  ordered_json j;
  ordered_json absent = ordered_json::object();
  j["index"] = gpu.index;
  put(j, absent, "name", gpu.name);
  put(j, absent, "uuid", gpu.uuid);
  put(j, absent, "pci_bus_id", gpu.pci_bus_id);
  put(j, absent, "power_limit_w", gpu.power_limit_w);
  put(j, absent, "shutdown_temp_c", gpu.shutdown_temp_c);
  put(j, absent, "slowdown_temp_c", gpu.slowdown_temp_c);
  put(j, absent, "max_sm_clock_mhz", gpu.max_sm_clock_mhz);
  const core::BurninGpuSummary* s = summary_of(report.assessment, gpu.index);
  const core::BurninGpuSummary none{};
  const auto& sum = s ? *s : none;
  j["samples"] = sum.samples;
  put(j, absent, "median_tflops", s ? sum.median_tflops : core::Reading<double>::absent("no samples"));
  put(j, absent, "median_temp_c", s ? sum.median_temp_c : core::Reading<double>::absent("no samples"));
  put(j, absent, "max_temp_c", s ? sum.max_temp_c : core::Reading<double>::absent("no samples"));
  put(j, absent, "median_power_w", s ? sum.median_power_w : core::Reading<double>::absent("no samples"));
  put(j, absent, "median_sm_clock_mhz", s ? sum.median_sm_clock_mhz : core::Reading<double>::absent("no samples"));
  j["load_stopped"] = sum.stopped;
  ordered_json unsupported = ordered_json::object();
  for (const auto& u : report.record.unsupported) {
    if (u.gpu == gpu.index) unsupported[u.field] = u.reason;
  }
  j["unsupported"] = unsupported;
  if (!absent.empty()) j["absent"] = absent;
  return j;
}

std::string cell(const core::Reading<double>& r, int decimals) {
  return r.known() ? fmt::format("{:.{}f}", *r, decimals) : std::string("n/a");
}

}  // namespace

std::string render_burnin_json(const BurninReport& report) {
  const auto& run = report.record.run;
  ordered_json j;
  j["schema"] = std::string(kBurninReportSchema);
  j["command"] = report.command;
  j["database"] = report.database;
  ordered_json r;
  r["source"] = run.source;
  r["simulated"] = run.simulated;
  r["hostname"] = run.hostname;
  r["dtype"] = run.dtype;
  r["faults"] = run.faults;
  r["interval_s"] = run.interval_s;
  r["planned_duration_s"] = run.planned_duration_s;
  r["recorded_s"] = report.assessment.recorded_s;
  r["status"] = std::string(core::to_string(run.status));
  ordered_json absent = ordered_json::object();
  put(r, absent, "ended_t_s", run.ended_t_s);
  r["started_unix_ms"] = run.started_unix_ms;
  r["stress_backend"] = run.stress_backend;
  r["telemetry_source"] = run.telemetry_source;
  if (!absent.empty()) r["absent"] = absent;
  j["run"] = r;
  ordered_json gpus = ordered_json::array();
  for (const auto& g : report.record.gpus) gpus.push_back(gpu_json(report, g));
  j["gpus"] = gpus;
  ordered_json events = ordered_json::array();
  for (const auto& e : report.record.events) {
    events.push_back({{"gpu", e.gpu}, {"t_s", e.t_s}, {"kind", std::string(core::to_string(e.kind))}, {"code", e.code},
                      {"message", e.message}});
  }
  j["events"] = events;
  j["traffic"] = traffic_json(report.record);
  ordered_json findings = ordered_json::array();
  for (const auto& f : report.assessment.findings) findings.push_back(finding_json(f));
  j["findings"] = findings;
  j["unverified"] = report.assessment.unverified;
  j["verdict"] = std::string(core::to_string(report.verdict));
  return j.dump(2) + "\n";
}

std::string render_burnin_text(const BurninReport& report, bool color) {
  const auto& run = report.record.run;
  std::string out = fmt::format("gpuvet burn-in: {}{}\n", run.source, run.simulated ? " (simulated: model numbers, not measurements)" : "");
  out += fmt::format("  database: {}\n", report.database);
  if (!(run.planned_duration_s > 0)) {  // a monitor's history (analysis::is_monitor_history): no plan
    out += fmt::format("  a monitor's history: sampled every {} s, {} recorded (a monitor has no planned duration), status {}\n",
                       run.interval_s, hms(report.assessment.recorded_s), core::to_string(run.status));
  } else {
    out += fmt::format("  dtype {}, sampled every {} s, {} of {} planned, status {}\n", run.dtype, run.interval_s,
                       hms(report.assessment.recorded_s), hms(run.planned_duration_s), core::to_string(run.status));
  }
  if (!run.faults.empty()) {
    std::string faults;
    for (const auto& f : run.faults) faults += (faults.empty() ? "" : ", ") + f;
    out += "  faults: " + faults + "\n";
  }
  out += "\nGPUs (steady state under load: medians after warm-up)\n";
  TextTable table({"GPU", "Name", "TFLOP/s", "Temp °C", "Max °C", "Power W", "Limit W", "SM MHz", "Samples", "Load"});
  for (const auto& g : report.record.gpus) {
    const core::BurninGpuSummary* s = summary_of(report.assessment, g.index);
    const core::Reading<double> none = core::Reading<double>::absent("no samples");
    table.add_row({std::to_string(g.index), g.name.value_or("n/a"), cell(s ? s->median_tflops : none, 1),
                   cell(s ? s->median_temp_c : none, 0), cell(s ? s->max_temp_c : none, 0),
                   cell(s ? s->median_power_w : none, 0), cell(g.power_limit_w, 0),
                   cell(s ? s->median_sm_clock_mhz : none, 0), std::to_string(s ? s->samples : 0),
                   s && s->stopped ? "stopped" : "ran"});
  }
  out += table.render(2);
  std::map<int, std::string> unsupported;
  for (const auto& u : report.record.unsupported) {
    unsupported[u.gpu] += fmt::format("{}{} ({})", unsupported[u.gpu].empty() ? "" : ", ", u.field, u.reason);
  }
  if (!unsupported.empty()) {
    out += "\nNot reported\n";
    for (const auto& [gpu, text] : unsupported) out += fmt::format("  GPU {}: {}\n", gpu, text);
  }
  if (!report.record.events.empty()) {
    out += "\nEvents\n";
    for (const auto& e : report.record.events) {
      out += fmt::format("  {}  GPU {}  {}{}: {}\n", hms(e.t_s), e.gpu, core::to_string(e.kind),
                         e.kind == core::TelemetryEventKind::xid ? fmt::format(" {}", e.code) : std::string(), e.message);
    }
  }
  out += traffic_text(report.record);
  out += "\nFindings\n" + findings_block(report.assessment.findings, color);
  if (!report.assessment.unverified.empty()) {
    out += "\nNot verified (the verdict cannot be pass)\n";
    for (const auto& u : report.assessment.unverified) out += "  - " + u + "\n";
  }
  core::Assessment counts;
  counts.findings = report.assessment.findings;
  counts.unverified = report.assessment.unverified;
  out += "\n" + verdict_line(counts, report.verdict, color);
  return fit_lines(out);
}

}  // namespace gpuvet::report
