// gpuvet monitor: the daemon that keeps watching a machine in production. Samples every GPU
// through the burn-in's telemetry source (NVML live, the simulator with --sim in virtual time),
// keeps the history in the burn-in's SQLite store (continued across restarts), evaluates the
// alert rules and serves /metrics, /alerts and /healthz on loopback (docs/monitor.md).
// Signals: SIGTERM/SIGINT finish the tick, flush the history and exit 0; SIGHUP logs the state
// and asks lost GPUs again (nothing is re-read from disk).
#include <signal.h>

#include <algorithm>
#include <atomic>
#include <charconv>
#include <cmath>
#include <memory>

#include <fmt/format.h>

#include "backends/nvml/nvml_telemetry.hpp"
#include "analysis/judge.hpp"
#include "backends/sim/burnin_sim_backends.hpp"
#include "catalog/gpu_catalog.hpp"
#include "cli/burnin_output.hpp"
#include "cli/commands.hpp"
#include "cli/option_checks.hpp"
#include "cli/target.hpp"
#include "cli/trend_baseline.hpp"
#include "core/duration.hpp"
#include "monitor/http_server.hpp"
#include "monitor/metric_catalog.hpp"
#include "monitor/monitor_service.hpp"
#include "monitor/prometheus_rules.hpp"
#include "monitor/scaled_clock.hpp"
#include "monitor/series_recorder.hpp"
#include "probes/live_machine.hpp"

namespace gpuvet::cli {

namespace {

struct MonitorOptions {
  std::string listen = "127.0.0.1:9835";
  std::string interval = "1s";
  std::string db;
  std::string retention;
  std::string baseline;
  std::string baseline_key;  // --key PUBKEY: the --baseline bundle's MANIFEST must be signed by its private key
  std::string sim_profile;
  std::vector<std::string> faults;
  std::string speed = "1";
  std::string duration;
  std::uint64_t seed = 1;
  bool dcgm_names = false;
  std::string record_series;
};

std::atomic<bool> g_stop{false};
std::atomic<bool> g_status{false};
extern "C" void on_stop(int) { g_stop.store(true); }
extern "C" void on_hup(int) { g_status.store(true); }

// While alive: SIGTERM/SIGINT set g_stop, SIGHUP sets g_status; the previous handlers come back after.
class DaemonSignalGuard {
 public:
  DaemonSignalGuard() {
    g_stop.store(false);
    g_status.store(false);
    install(SIGTERM, on_stop, 0);
    install(SIGINT, on_stop, 1);
    install(SIGHUP, on_hup, 2);
  }
  ~DaemonSignalGuard() {
    sigaction(SIGTERM, &previous_[0], nullptr);
    sigaction(SIGINT, &previous_[1], nullptr);
    sigaction(SIGHUP, &previous_[2], nullptr);
  }
  DaemonSignalGuard(const DaemonSignalGuard&) = delete;
  DaemonSignalGuard& operator=(const DaemonSignalGuard&) = delete;

 private:
  void install(int signal, void (*handler)(int), int slot) {
    struct sigaction action {};
    action.sa_handler = handler;
    sigemptyset(&action.sa_mask);
    sigaction(signal, &action, &previous_[slot]);
  }
  struct sigaction previous_[3] {};
};

// A retention span: the duration grammar, plus whole days beyond its 30-day limit ("400d").
std::optional<double> retention_span(const std::string& text) {
  if (text.size() > 1 && text.back() == 'd') {
    double days = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size() - 1, days);
    if (ec == std::errc() && end == text.data() + text.size() - 1 && std::isfinite(days) && days > 0 && days <= 3650) {
      return days * 86400;
    }
  }
  return core::parse_duration(text);
}

// "raw=48h,minute=30d,hour=400d" (any subset, any order) over the defaults.
core::Result<telemetry::Retention> parse_retention(const std::string& text) {
  telemetry::Retention r;
  const auto bad = [&](const std::string& why) {
    return core::usage_error(fmt::format("--retention '{}': {} (expected e.g. raw=48h,minute=30d,hour=400d)", text, why));
  };
  std::string_view rest = text;
  while (!rest.empty()) {
    const auto comma = rest.find(',');
    const std::string item(rest.substr(0, comma));
    rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
    const auto eq = item.find('=');
    if (eq == std::string::npos) return bad(fmt::format("'{}' is not layer=duration", item));
    const std::string layer = item.substr(0, eq);
    const auto span = retention_span(item.substr(eq + 1));
    if (!span || *span <= 0) return bad(fmt::format("'{}' is not a duration", item.substr(eq + 1)));
    if (layer == "raw") {
      r.raw_s = *span;
    } else if (layer == "minute") {
      r.minute_s = *span;
    } else if (layer == "hour") {
      r.hour_s = *span;
    } else {
      return bad(fmt::format("unknown layer '{}' (raw, minute, hour)", layer));
    }
  }
  if (r.raw_s < 600) return bad("raw samples must be kept at least 10m");
  // Each coarser layer summarises the finer one and must outlive it (and hold at least one of its own).
  if (r.minute_s < r.raw_s || r.minute_s < 60) return bad("minute rollups must be kept at least as long as raw samples");
  if (r.hour_s < r.minute_s || r.hour_s < 3600) return bad("hourly rollups must be kept at least as long as minute rollups (and 1h)");
  return r;
}

// The machine picture at start (NVML and sysfs, or the simulator's), judged once: what it shows
// on each GPU becomes the likely cause named by a utilization_below_peers alert (lag_causes.hpp).
void read_machine(const MonitorOptions& o, monitor::MonitorStart& start) {
  auto target = Target::open({o.sim_profile, o.faults, o.seed, "/"});
  if (!target) {
    start.machine_unavailable = target.error().message;
    return;
  }
  const auto& machine = target.value().machine();
  if (!machine) {
    start.machine_unavailable = machine.error().message;
    return;
  }
  start.machine = analysis::judge_machine(*machine, catalog::gpu_catalog(), {});
}

core::Result<std::unique_ptr<api::TelemetrySource>> open_source(const MonitorOptions& o) {
  if (o.sim_profile.empty()) {
    if (!o.faults.empty()) return core::usage_error("--fault needs --sim PROFILE: faults are overlays on a simulated machine");
    auto nvml = nvml::open_nvml_telemetry(probes::default_nvml_library());
    if (!nvml) return nvml.error().with_context("cannot watch this machine's GPUs");
    return std::move(nvml).value();
  }
  std::vector<sim::FaultSpec> parsed;
  for (const auto& text : o.faults) {
    auto fault = sim::parse_fault(text);
    if (!fault) return fault.error();
    parsed.push_back(std::move(fault).value());
  }
  auto simulated = sim::make_sim_production(o.sim_profile, parsed, o.seed);
  if (!simulated) return simulated.error();
  return std::unique_ptr<api::TelemetrySource>(std::move(simulated.value().telemetry));
}

core::Result<core::ExitCode> run_monitor(const MonitorOptions& o, Streams& streams) {
  monitor::MonitorStart start;
  monitor::DaemonConfig& config = start.config;
  start.simulated = !o.sim_profile.empty();
  start.sim_profile = o.sim_profile;
  start.faults = o.faults;
  start.dcgm_names = o.dcgm_names;
  start.listen = o.listen;
  start.record_series = o.record_series;
  auto interval = parse_duration(o.interval, "--interval");
  if (!interval) return interval.error();
  if (*interval < 0.1) return core::usage_error("--interval: the shortest sampling interval is 100ms");
  config.interval_s = *interval;
  if (!o.duration.empty()) {
    auto duration = parse_duration(o.duration, "--duration");
    if (!duration) return duration.error();
    config.duration_s = *duration;
  }
  if (!o.retention.empty()) {
    auto retention = parse_retention(o.retention);
    if (!retention) return retention.error();
    config.retention = *retention;
  }
  if (o.speed == "max") {
    start.speed = 0;
  } else {
    const auto [end, ec] = std::from_chars(o.speed.data(), o.speed.data() + o.speed.size(), start.speed);
    if (ec != std::errc() || end != o.speed.data() + o.speed.size() ||
        !(start.speed >= monitor::kMinSpeed && start.speed <= monitor::kMaxSpeed)) {
      return core::usage_error(fmt::format("--speed '{}': expected a number from {:.0f} to {:.0f} (fractions allowed, e.g. 1.5), or max",
                                           o.speed, monitor::kMinSpeed, monitor::kMaxSpeed));
    }
  }
  if (!start.simulated && o.speed != "1") return core::usage_error("--speed needs --sim PROFILE: a live machine runs in real time");
  if (!start.simulated && !o.duration.empty()) return core::usage_error("--duration needs --sim PROFILE (tests and demos)");
  if (!o.record_series.empty() &&
      (!start.simulated || o.duration.empty() || config.duration_s > static_cast<double>(monitor::kMaxRecordedMinutes) * 60)) {
    return core::usage_error(
        fmt::format("--record-series needs --sim PROFILE and a --duration of at most {} h", monitor::kMaxRecordedMinutes / 60));
  }
  auto address = monitor::parse_listen_address(o.listen);
  if (!address) return address.error();
  start.address = *address;
  start.db = !o.db.empty() ? o.db : start.simulated ? ":memory:" : "gpuvet-monitor.db";

  auto source = open_source(o);
  if (!source) return source.error();
  // Read once, here: the same reader as gpuvet trend; the service numbers it as the history.
  if (!o.baseline_key.empty() && o.baseline.empty()) return core::usage_error("--key checks the --baseline bundle's signature: give --baseline");
  if (!o.baseline.empty()) {
    std::string unchecked;
    auto read = read_baseline_bundle(o.baseline, o.baseline_key, &unchecked);
    if (!read) return read.error();
    if (!unchecked.empty()) streams.err << "<4>gpuvet: --baseline " << o.baseline << ": " << unchecked << "\n";
    auto bundle = std::make_shared<accept::AcceptReport>(std::move(read).value());
    start.baseline = monitor::MonitorBaseline{
        o.baseline, bundle_gpus(*bundle),
        [bundle, dir = o.baseline](const std::vector<core::GpuTrend>& known) { return baseline_for_history(*bundle, dir, known); }};
  }
  read_machine(o, start);
  DaemonSignalGuard signal_guard;
  return monitor::run_monitor(std::move(source).value(), std::move(start), streams.err, {&g_stop, &g_status});
}

}  // namespace

void add_monitor_command(CLI::App& app, Action& action) {
  auto options = std::make_shared<MonitorOptions>();
  auto* cmd = app.add_subcommand("monitor", "Keep watching in production: history, alert rules and a Prometheus endpoint");
  cmd->add_option("--listen", options->listen, "Address and port of /metrics, /alerts, /healthz (default 127.0.0.1:9835)");
  cmd->add_option("--interval", options->interval, "Sampling interval: 1s (default), 100ms ...");
  cmd->add_option("--db", options->db,
                  "History database: continued when it exists (default ./gpuvet-monitor.db; in memory with --sim)")
      ->check(non_empty_path());
  cmd->add_option("--baseline", options->baseline,
                  "Acceptance bundle (gpuvet accept --out) of this machine: alert when a GPU under load drifts from it (baseline_drift)")
      ->check(non_empty_path());
  cmd->add_option("--key", options->baseline_key,
                  "Public key (KEY.pub from `gpuvet keygen`): read --baseline only when its MANIFEST is signed by its private key")
      ->check(non_empty_path());
  cmd->add_option("--retention", options->retention,
                  "How long each layer is kept: raw=48h,minute=30d,hour=400d (defaults; any subset)");
  cmd->add_option("--sim", options->sim_profile, "Watch a built-in simulated machine under load (see `gpuvet sim list`)");
  cmd->add_option("--fault", options->faults,
                  "Fault overlay on the simulated machine, e.g. util-lag:gpu=3 or nvlink-crc:gpu=2,link=1,per_min=60,at=1h (repeatable)");
  cmd->add_option("--speed", options->speed,
                  "With --sim: simulated seconds per wall second, a number from 1 to 10000000 (default 1), or max");
  cmd->add_option("--duration", options->duration, "With --sim: stop after this much simulated time (e.g. 2h)");
  cmd->add_option("--seed", options->seed, "Seed of the simulator's noise (default 1)");
  cmd->add_flag("--dcgm-names", options->dcgm_names, "Also expose dcgm-exporter's metric names and labels");
  cmd->add_option("--record-series", options->record_series,
                  "With --sim and --duration: write /metrics once a simulated minute to FILE as promtool input_series, "
                  "to test alerting rules against a fault (promtool test rules)")
      ->check(non_empty_path());
  // gpuvet monitor rules: the alert rules as a Prometheus alerting rules file (src/monitor/prometheus_rules).
  auto rules_options = std::make_shared<monitor::RulesOptions>();
  auto* rules = cmd->add_subcommand("rules", "Print the alert rules as a Prometheus alerting rules file (docs/monitor.md)");
  rules->add_option("--speed", rules_options->speed,
                    "Divide every window and for: by N (1 to 10000000, as gpuvet monitor --sim --speed N; default 1)")
      ->check(CLI::Validator(
          [](std::string& text) -> std::string {
            double v = 0;
            const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
            if (ec == std::errc() && end == text.data() + text.size() && v >= monitor::kMinSpeed && v <= monitor::kMaxSpeed) return {};
            return fmt::format("'{}': expected a number from {:.0f} to {:.0f} (fractions allowed, e.g. 1.5), as gpuvet monitor --speed",
                               text, monitor::kMinSpeed, monitor::kMaxSpeed);
          },
          "NUMBER in 1..10000000"));
  rules->callback([rules_options, &action] {
    action = [rules_options](Streams& streams) -> core::Result<core::ExitCode> {
      streams.out << monitor::prometheus_alert_rules(*rules_options);
      return core::ExitCode::pass;
    };
  });
  // gpuvet monitor metrics [--markdown]: the metric table /metrics is written from (docs/metrics.md).
  auto markdown = std::make_shared<bool>(false);
  auto* metrics = cmd->add_subcommand("metrics", "List every metric the endpoint can export (docs/metrics.md)");
  metrics->add_flag("--markdown", *markdown, "Print the tables used for docs/metrics.md");
  metrics->callback([markdown, &action] {
    action = [markdown](Streams& streams) -> core::Result<core::ExitCode> {
      if (*markdown) {
        streams.out << monitor::render_metric_catalog_markdown();
        return core::ExitCode::pass;
      }
      for (const auto& info : monitor::metric_catalog()) {
        streams.out << fmt::format("{:<46} {:<7} {}\n", info.name, info.type == monitor::MetricType::counter ? "counter" : "gauge",
                                   info.unit);
      }
      return core::ExitCode::pass;
    };
  });
  cmd->callback([options, rules, metrics, &action] {
    if (rules->parsed() || metrics->parsed()) return;  // CLI11 runs the parent's callback after a subcommand's own
    action = [options](Streams& streams) { return run_monitor(*options, streams); };
  });
}

}  // namespace gpuvet::cli
