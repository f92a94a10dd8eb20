// The monitor daemon's start-up, life and shutdown (see monitor_service.hpp).
#include "monitor/monitor_service.hpp"

#include <algorithm>
#include <cmath>
#include <ctime>
#include <filesystem>
#include <fstream>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "monitor/journal_log.hpp"
#include "monitor/lag_causes.hpp"
#include "monitor/renumbered_source.hpp"
#include "monitor/scaled_clock.hpp"
#include "monitor/series_recorder.hpp"
#include "platform/environment.hpp"
#include "telemetry/history_gpus.hpp"
#include "telemetry/telemetry_store.hpp"

namespace gpuvet::monitor {

namespace {

// "20260101T000000Z": the suffix of a history moved aside.
std::string utc_stamp(std::int64_t unix_ms) {
  const std::time_t t = static_cast<std::time_t>(unix_ms / 1000);
  std::tm tm{};
  gmtime_r(&t, &tm);
  return fmt::format("{:04}{:02}{:02}T{:02}{:02}{:02}Z", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec);
}

// The journal line of a history moved aside: each new card and each card gone, by UUID.
std::string replacement_note(const std::string& db, const telemetry::ReplacedCards& r, const std::string& moved_to) {
  const auto list = [](const std::vector<core::BurninGpu>& gpus) {
    std::vector<std::string> out;
    for (const auto& g : gpus) out.push_back(fmt::format("GPU {} {}", g.index, g.uuid.known() ? *g.uuid : "no UUID"));
    return out.empty() ? std::string("none") : fmt::format("{}", fmt::join(out, ", "));
  };
  return fmt::format("a card replaced or added: {} not in the history {}; of the history not enumerated now: {}; that "
                     "history is moved aside to {} (kept whole: gpuvet trend/report --db read it) and a new history starts in {}",
                     list(r.new_cards), db, list(r.gone), moved_to, db);
}

// The history and how its GPUs are numbered, opened before anything is sampled.
struct History {
  std::unique_ptr<telemetry::TelemetryStore> store;
  telemetry::HistoryGpuMatch match;
  std::string replaced_note;  // logged once the journal is open
};

core::Result<History> open_history(const MonitorStart& s, api::TelemetrySource& source, const std::vector<core::BurninGpu>& gpus,
                                   platform::Clock& wall, DaemonConfig& config) {
  History h;
  bool exists = s.db != ":memory:" && std::filesystem::exists(s.db);
  // A card replaced (RMA) or added since the history began: that history is moved aside, kept
  // whole, and a new one starts (docs/monitor.md "Which GPU is which after a restart").
  std::optional<telemetry::ReplacedCards> replaced;
  if (exists) {
    auto recorded = telemetry::read_monitor_history_gpus(s.db);
    if (!recorded) return recorded.error();
    replaced = telemetry::replaced_cards(*recorded, gpus);
    if (replaced) exists = false;
  }
  telemetry::StoreOptions options;
  options.purpose = "monitor";
  options.fsync_each_commit = false;  // NORMAL: a killed daemon loses nothing committed; power loss the last second
  options.keyframe_every_s = std::min(3600.0, config.retention.raw_s / 4);
  options.interval_s = config.interval_s;  // a history continued with another --interval is refused
  // Which card is which: the history's numbering, matched by UUID (the same as the source's
  // unless a GPU fell off the bus and the driver renumbered the others).
  h.match = telemetry::same_numbering(gpus);
  std::vector<core::BurninGpu> history_gpus = gpus;
  if (exists && s.baseline) {
    // The bundle is judged against the history's GPUs before anything is written to it.
    auto inspected = telemetry::inspect_monitor_history(s.db, gpus);
    if (!inspected) return inspected.error();
    h.match = std::move(inspected).value();
  } else if (s.baseline) {
    // A new history numbered as the acceptance was: a GPU of the bundle the driver does not
    // enumerate now is missing from the start (gpu_lost), not silently a 7-GPU machine.
    auto by_bundle = telemetry::match_history_gpus(s.baseline->dir, s.baseline->bundle_gpus, gpus);
    if (by_bundle) {
      h.match = std::move(by_bundle).value();
      history_gpus = h.match.present;
      history_gpus.insert(history_gpus.end(), h.match.missing.begin(), h.match.missing.end());
      std::sort(history_gpus.begin(), history_gpus.end(), [](const auto& x, const auto& y) { return x.index < y.index; });
      config.missing_known_from = "the acceptance bundle " + s.baseline->dir;
    }
  }
  if (s.baseline) {
    // Each GPU's baseline goes to the card of its UUID, under the history's index (lost ones too).
    std::vector<core::GpuTrend> known;
    for (const auto& list : {h.match.present, h.match.missing}) {
      for (const auto& g : list) {
        core::GpuTrend gpu;
        gpu.gpu = g.index;
        if (g.uuid.known()) gpu.uuid = *g.uuid;
        known.push_back(std::move(gpu));
      }
    }
    auto baseline = s.baseline->numbered(known);
    if (!baseline) return baseline.error();
    config.baseline = std::move(baseline).value();
  }
  if (exists) {
    auto reopened = telemetry::TelemetryStore::reopen(s.db, gpus, source.describe(), wall, options, &h.match);
    if (!reopened) return reopened.error();
    h.store = std::move(reopened).value();
    return h;
  }
  if (replaced) {
    auto moved = telemetry::move_history_aside(s.db, utc_stamp(wall.unix_ms()));
    if (!moved) return moved.error();
    h.replaced_note = replacement_note(s.db, *replaced, *moved);
  }
  core::BurninRunInfo run;
  run.source = s.simulated ? "monitor, simulated: " + s.sim_profile : "monitor (NVML)";
  run.simulated = s.simulated;
  run.hostname = s.simulated ? "simulated" : platform::hostname();
  run.dtype = "none";
  run.faults = s.faults;
  run.interval_s = config.interval_s;
  run.started_unix_ms = wall.unix_ms();
  run.stress_backend = "none (the monitor only watches)";
  run.telemetry_source = source.describe();
  auto created = telemetry::TelemetryStore::create(s.db, run, history_gpus, wall, options);
  if (!created) return created.error();
  h.store = std::move(created).value();
  return h;
}

// The journal's word on the baseline: which GPUs are compared; one without burn-in results is not.
void log_baseline(JournalLog& log, const core::TrendBaseline& baseline, const telemetry::HistoryGpuMatch& match) {
  std::vector<int> compared, missing;
  for (const auto& g : match.present) {
    const bool has = std::any_of(baseline.gpus.begin(), baseline.gpus.end(),
                                 [&](const core::TrendBaselineGpu& b) { return b.gpu == g.index; });
    (has ? compared : missing).push_back(g.index);
  }
  log.info(fmt::format("baseline {}{}: GPU(s) {} compared with their acceptance burn-in (baseline_drift)", baseline.label,
                       baseline.finished_utc.empty() ? "" : " (" + baseline.finished_utc + ")", fmt::join(compared, ",")));
  if (!missing.empty()) {
    log.warning(fmt::format("baseline {}: no burn-in results for GPU(s) {}: not compared with an acceptance baseline",
                            baseline.label, fmt::join(missing, ",")));
  }
}

std::unique_ptr<platform::Clock> run_clock(const MonitorStart& s, std::int64_t epoch_ms) {
  if (!s.simulated) return std::make_unique<platform::SteadyClock>();
  if (s.speed == 0) return std::make_unique<platform::ManualClock>(epoch_ms);
  return std::make_unique<ScaledClock>(s.speed, epoch_ms);
}

std::optional<core::Error> write_series(const SeriesRecorder& recorder, const std::string& path, JournalLog& log) {
  auto series = recorder.promtool_input_series();
  if (!series) return series.error();
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << *series;
  if (!out.flush()) return core::environment_error(fmt::format("--record-series {}: cannot write the file", path));
  log.info(fmt::format("{} minute(s) of series written to {} (promtool input_series)", recorder.minutes(), path));
  return std::nullopt;
}

}  // namespace

core::Result<core::ExitCode> run_monitor(std::unique_ptr<api::TelemetrySource> source, MonitorStart s, std::ostream& err,
                                         DaemonSignals signals) {
  DaemonConfig& config = s.config;
  auto gpus = source->gpus();
  if (!gpus) return gpus.error();
  platform::SteadyClock wall;
  auto history = open_history(s, *source, *gpus, wall, config);
  if (!history) return history.error();
  telemetry::TelemetryStore& store = *history->store;
  const telemetry::HistoryGpuMatch& match = history->match;
  config.missing = match.missing;
  if (s.machine) {
    std::map<int, int> index_of;  // the picture numbers GPUs as the source does
    for (std::size_t i = 0; i < match.present.size(); ++i) index_of[match.source_index[i]] = match.present[i].index;
    config.lag_causes = lag_causes(*s.machine, index_of);
  } else {
    config.lag_causes_unavailable = s.machine_unavailable;
  }
  std::unique_ptr<SeriesRecorder> recorder;
  if (!s.record_series.empty()) {
    recorder = std::make_unique<SeriesRecorder>("simulated");
    config.on_publish = [&recorder](double t_s, const MonitorSnapshot& snapshot) { recorder->on_snapshot(t_s, snapshot); };
  }
  // Run time continues from the file: a simulated restart resumes one interval after its last tick.
  const std::int64_t epoch_ms = s.simulated && store.last_t_s() >= 0
                                    ? store.started_unix_ms() + std::llround((store.last_t_s() + config.interval_s) * 1000)
                                    : wall.unix_ms();
  auto clock = run_clock(s, epoch_ms);
  config.time_scale = s.speed == 0 ? 1 : s.speed;
  config.hostname = s.simulated ? "simulated" : platform::hostname();
  if (!is_loopback(s.address)) err << "<4>gpuvet: serving on " << s.listen << ", not loopback: anyone who reaches it reads the metrics\n";

  JournalLog log(err);
  SnapshotBoard board;
  HttpOptions http_options;
  http_options.dcgm_names = s.dcgm_names;
  http_options.log_warning = [&log](std::string_view line) { log.warning(line); };
  MonitorHttpServer server(s.address, board, http_options);
  auto port = server.start();
  if (!port) return port.error().with_context("starting the endpoint");
  if (!history->replaced_note.empty()) log.warning(history->replaced_note);
  log.info(fmt::format("serving /metrics, /alerts and /healthz on {}", server.describe()));
  if (config.baseline) log_baseline(log, *config.baseline, match);
  for (std::size_t i = 0; i < match.present.size(); ++i) {
    if (match.present[i].index == match.source_index[i]) continue;
    log.notice(fmt::format("GPU {} of the history ({}) is index {} for the driver now: labelled and stored as GPU {}",
                           match.present[i].index, match.present[i].uuid.known() ? *match.present[i].uuid : "no UUID",
                           match.source_index[i], match.present[i].index));
  }
  auto renumbered = std::make_unique<RenumberedSource>(*source, match);
  MonitorDaemon daemon(*renumbered, store, board, *clock, wall, log, config);
  auto summary = daemon.run(signals);
  server.stop();
  if (daemon.hung_calls() > 0) {
    // A thread is still inside an NVML call that hung: destroying the source would call
    // nvmlShutdown (which may block on the same driver lock) and unload code that thread runs
    // (through the renumbering wrapper, kept too).
    log.warning(fmt::format("{} NVML call(s) still hung at exit; leaving NVML loaded", daemon.hung_calls()));
    (void)source.release();
    (void)renumbered.release();
  }
  if (!summary) return summary.error().with_context("monitor");
  if (recorder) {
    if (auto e = write_series(*recorder, s.record_series, log)) return *e;
  }
  return core::ExitCode::pass;
}

}  // namespace gpuvet::monitor
