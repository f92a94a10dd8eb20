// The monitor's sampling loop (see monitor_daemon.hpp).
#include "monitor/monitor_daemon.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <set>

namespace gpuvet::monitor {

namespace {

// The readings a telemetry source is asked for; one that is absent and was not found
// unsupported by probe() is a failed call (DaemonCost::source_errors_total).
std::vector<std::pair<std::string_view, bool>> read_fields(const core::TelemetrySample& s) {
  return {{"gpu_temp_c", s.gpu_temp_c.known()},     {"mem_temp_c", s.mem_temp_c.known()},
          {"sm_clock_mhz", s.sm_clock_mhz.known()}, {"mem_clock_mhz", s.mem_clock_mhz.known()},
          {"power_w", s.power_w.known()},           {"energy_j", s.energy_j.known()},
          {"util_gpu_pct", s.util_gpu_pct.known()}, {"util_mem_pct", s.util_mem_pct.known()},
          {"clocks_event_reasons", s.clocks_event_reasons.known()}, {"pstate", s.pstate.known()},
          {"ecc_corrected", s.ecc_corrected.known()}, {"ecc_uncorrected", s.ecc_uncorrected.known()},
          {"pcie_replays", s.pcie_replays.known()}, {"nvlink", s.nvlink.known()}};
}

// Why `field` (a name from read_fields) is absent in `s`.
std::string reading_reason(const core::TelemetrySample& s, std::string_view field) {
  const auto why = [](const auto& reading) { return reading.known() ? std::string("no reading") : reading.reason(); };
  if (field == "gpu_temp_c") return why(s.gpu_temp_c);
  if (field == "mem_temp_c") return why(s.mem_temp_c);
  if (field == "sm_clock_mhz") return why(s.sm_clock_mhz);
  if (field == "mem_clock_mhz") return why(s.mem_clock_mhz);
  if (field == "power_w") return why(s.power_w);
  if (field == "energy_j") return why(s.energy_j);
  if (field == "util_gpu_pct") return why(s.util_gpu_pct);
  if (field == "util_mem_pct") return why(s.util_mem_pct);
  if (field == "clocks_event_reasons") return why(s.clocks_event_reasons);
  if (field == "pstate") return why(s.pstate);
  if (field == "ecc_corrected") return why(s.ecc_corrected);
  if (field == "ecc_uncorrected") return why(s.ecc_uncorrected);
  if (field == "pcie_replays") return why(s.pcie_replays);
  return why(s.nvlink);
}

// A sample with every reading absent for `reason` (a GPU whose call did not return).
core::TelemetrySample unanswered(const std::string& reason) {
  core::TelemetrySample s;
  const core::Absent why{reason};
  s.gpu_temp_c = s.mem_temp_c = s.sm_clock_mhz = s.mem_clock_mhz = s.power_w = s.energy_j = why;
  s.util_gpu_pct = s.util_mem_pct = why;
  s.clocks_event_reasons = s.ecc_corrected = s.ecc_uncorrected = s.pcie_replays = why;
  s.pstate = s.retired_pages_sbe = s.retired_pages_dbe = why;
  s.retired_pages_pending = s.remap_pending = why;
  s.nvlink = why;
  return s;
}

std::string alert_key(const MonitorAlert& a) {
  std::string key = a.code;
  for (int g : a.gpus) key += fmt::format(":{}", g);
  return key;
}

// Sleeps on `clock` until `deadline`, looking at `stop` every `slice` of clock time.
void wait_until(platform::Clock& clock, platform::Clock::Duration deadline, platform::Clock::Duration slice,
                const std::atomic<bool>* stop) {
  while (clock.now() < deadline && !(stop && stop->load())) clock.sleep_until(std::min(deadline, clock.now() + slice));
}

}  // namespace

MonitorDaemon::MonitorDaemon(api::TelemetrySource& source, telemetry::TelemetryStore& store, SnapshotBoard& board,
                             platform::Clock& clock, platform::Clock& wall, JournalLog& log, DaemonConfig config)
    : source_(source), store_(store), board_(board), clock_(clock), wall_(wall), log_(log), config_(std::move(config)) {}

void MonitorDaemon::publish(std::int64_t unix_ms, bool healthy, std::string reason) {
  MonitorSnapshot s;
  s.hostname = config_.hostname;
  s.source = source_.describe();
  s.simulated = source_.simulated();
  s.interval_s = config_.interval_s;
  s.taken_unix_ms = unix_ms;
  s.healthy = healthy;
  s.health_reason = std::move(reason);
  s.gpus = gpus_;
  s.alerts = alerts_;
  s.cost = cost_;
  if (config_.on_publish) config_.on_publish(static_cast<double>(unix_ms - store_.started_unix_ms()) / 1000.0, s);
  board_.publish(std::move(s));
}

void MonitorDaemon::log_alert_changes() {
  std::vector<MonitorAlert> now = evaluator_->active();
  attach_lag_causes(now, config_.lag_causes, config_.lag_causes_unavailable);
  std::map<std::string, core::Severity> before;
  for (const auto& a : alerts_) before.emplace(alert_key(a), a.severity);
  std::set<std::string> after;
  // At the journal priority of its severity: fail <3>, warn <4>, info <5>.
  const auto log_at = [&](core::Severity severity, const std::string& line) {
    if (severity == core::Severity::fail) {
      log_.error(line);
    } else if (severity == core::Severity::warn) {
      log_.warning(line);
    } else {
      log_.notice(line);
    }
  };
  for (const auto& a : now) {
    after.insert(alert_key(a));
    const auto was = before.find(alert_key(a));
    if (was == before.end()) {
      log_at(a.severity, fmt::format("alert {} ({}): {}", a.code, core::to_string(a.severity), a.message));
    } else if (static_cast<int>(a.severity) > static_cast<int>(was->second)) {
      // Severity enumerators run info < warn < fail: the same alert got worse (a rate past a limit).
      log_at(a.severity, fmt::format("alert {} rose to {} (was {}): {}", a.code, core::to_string(a.severity),
                                     core::to_string(was->second), a.message));
    } else if (static_cast<int>(a.severity) < static_cast<int>(was->second)) {
      log_.notice(fmt::format("alert {} eased to {} (was {}): {}", a.code, core::to_string(a.severity),
                              core::to_string(was->second), a.message));
    }
  }
  for (const auto& a : alerts_) {
    if (!after.count(alert_key(a))) log_.notice(fmt::format("alert {} cleared: {}", a.code, a.message));
  }
  alerts_ = std::move(now);
}

std::optional<core::TelemetrySample> MonitorDaemon::ask_sample(int gpu, double source_t) {
  if (!caller_) return source_.sample(gpu, source_t);
  auto out = std::make_shared<core::TelemetrySample>();
  api::TelemetrySource* source = &source_;
  if (!caller_->run(gpu, [source, out, gpu, source_t] { *out = source->sample(gpu, source_t); })) return std::nullopt;
  return std::move(*out);
}

std::optional<std::vector<core::UnsupportedField>> MonitorDaemon::ask_probe(int gpu) {
  if (!caller_) return source_.probe(gpu);
  auto out = std::make_shared<std::vector<core::UnsupportedField>>();
  api::TelemetrySource* source = &source_;
  if (!caller_->run(gpu, [source, out, gpu] { *out = source->probe(gpu); })) return std::nullopt;
  return std::move(*out);
}

bool MonitorDaemon::probe_slot(std::size_t slot, std::vector<core::UnsupportedField>& unsupported) {
  auto probed = ask_probe(gpus_[slot].gpu.index);
  if (!probed) return false;
  needs_probe_[slot] = false;
  for (auto& f : *probed) {
    if (f.field == "xid_events") gpus_[slot].xid_watched = false;
    unsupported_[slot].push_back(f.field);
    unsupported.push_back(std::move(f));
  }
  return true;
}

void MonitorDaemon::record_missing(std::size_t slot, double t_s, std::int64_t unix_ms) {
  GpuNow& g = gpus_[slot];
  core::TelemetrySample s = unanswered(missing_[slot]);
  s.gpu = g.gpu.index;
  s.t_s = t_s;
  s.unix_ms = unix_ms;
  s.tflops = core::Absent{"the monitor only watches (no load of its own)"};
  s.miscompares = core::Absent{"the monitor only watches (no load of its own)"};
  g.lost = true;
  g.has_sample = true;
  evaluator_->on_sample(s, false, missing_[slot]);
  if (auto e = store_.append(s)) {
    ++cost_.store_errors_total;
    if (!store_failing_) log_.error("history not written: " + e->message);
    store_failing_ = true;
  }
  g.latest = std::move(s);
}

std::optional<core::Error> MonitorDaemon::tick(double t_s, std::int64_t unix_ms, double source_t, bool retry_lost) {
  const auto started = wall_.now();
  const auto store_failed = [&](const core::Error& e) {
    ++cost_.store_errors_total;
    if (!store_failing_) log_.error("history not written: " + e.message);
    store_failing_ = true;
  };
  for (auto event : source_.drain_events(source_t)) {
    event.t_s = std::max(segment_start_s_, event.t_s + segment_start_s_);
    for (auto& g : gpus_) {
      if (g.gpu.index != event.gpu) continue;
      if (event.kind == core::TelemetryEventKind::xid) {
        ++g.xid_total;
        g.last_xid = event.code;
      }
      if (event.kind == core::TelemetryEventKind::gpu_lost && !g.lost) {
        g.lost = true;
        log_.error(fmt::format("GPU {} lost: {}; the other GPUs are still sampled", event.gpu, event.message));
      }
    }
    evaluator_->on_event(event, unix_ms);
    if (auto e = store_.append(event)) store_failed(*e);
  }
  for (std::size_t slot = 0; slot < gpus_.size(); ++slot) {
    GpuNow& g = gpus_[slot];
    if (g.lost && !retry_lost && t_s - lost_asked_s_[slot] < config_.lost_retry_s) continue;
    lost_asked_s_[slot] = t_s;
    if (!missing_[slot].empty()) {
      record_missing(slot, t_s, unix_ms);
      continue;
    }
    const bool was_busy = caller_ && caller_->busy(g.gpu.index);
    if (was_busy && g.lost) continue;  // still inside the call that hung: nothing to ask
    std::optional<core::TelemetrySample> asked;
    if (!was_busy && needs_probe_[slot]) {
      std::vector<core::UnsupportedField> found;
      if (probe_slot(slot, found)) {
        if (auto e = store_.record_unsupported(found)) store_failed(*e);
        asked = ask_sample(g.gpu.index, source_t);
      }
    } else if (!was_busy) {
      asked = ask_sample(g.gpu.index, source_t);
    }
    const std::string no_answer = asked ? std::string() : fmt::format(
        "no answer within {} s: an NVML call on this GPU hangs (GPU unresponsive)", caller_ ? caller_->deadline_s() : 0.0);
    if (!asked && !was_busy) ++cost_.source_errors_total;  // this tick's call passed its deadline
    core::TelemetrySample s = asked ? std::move(*asked) : unanswered(no_answer);
    s.gpu = g.gpu.index;
    s.t_s = t_s;
    s.unix_ms = unix_ms;
    s.tflops = core::Absent{"the monitor only watches (no load of its own)"};
    s.miscompares = core::Absent{"the monitor only watches (no load of its own)"};
    ++cost_.samples_total;
    std::size_t failed = 0, known = 0;
    std::string silence = asked ? "" : no_answer;  // why the GPU says nothing
    for (const auto& [field, ok] : read_fields(s)) {
      if (ok) {
        ++known;
      } else if (std::find(unsupported_[slot].begin(), unsupported_[slot].end(), field) == unsupported_[slot].end()) {
        ++failed;
        if (silence.empty()) silence = reading_reason(s, field);
      }
    }
    if (asked) cost_.source_errors_total += failed;
    // A GPU whose every reading is unsupported (an old driver without the symbols) still answers:
    // it is silent only when readings it can report fail and none succeeds.
    const bool answers = asked.has_value() && (known > 0 || failed == 0);
    if (g.lost && answers) log_.notice(fmt::format("GPU {} answers again", g.gpu.index));
    if (!g.lost && !answers) {
      log_.error(fmt::format("GPU {} stopped answering ({}); the other GPUs are still sampled", g.gpu.index, silence));
    }
    g.lost = !answers;
    g.has_sample = true;
    if (answers) g.last_answered_unix_ms = s.unix_ms;
    evaluator_->on_sample(s, answers, silence);
    if (auto e = store_.append(s)) store_failed(*e);
    g.latest = std::move(s);
  }
  if (auto e = store_.end_tick()) store_failed(*e);
  evaluator_->end_tick(t_s, unix_ms);
  if (t_s - last_prune_s_ >= config_.prune_every_s) {
    last_prune_s_ = t_s;
    if (auto e = store_.prune(config_.retention, t_s)) store_failed(*e);
  }
  log_alert_changes();
  ++cost_.ticks_total;
  cost_.last_tick_duration_s = platform::seconds(wall_.now() - started);
  cost_.uptime_s = t_s - segment_start_s_;
  return std::nullopt;
}

core::Result<DaemonSummary> MonitorDaemon::run(DaemonSignals signals) {
  auto listed = source_.gpus();
  if (!listed) return listed.error();
  // The GPUs listed now and those of the history missing now, in index order.
  std::vector<std::pair<core::BurninGpu, std::string>> slots;
  for (const auto& info : *listed) slots.emplace_back(info, "");
  for (const auto& info : config_.missing) {
    const std::string uuid = info.uuid.known() ? *info.uuid : "UUID not recorded";
    const std::string bus = info.pci_bus_id.known() ? ", " + *info.pci_bus_id : "";
    slots.emplace_back(info, config_.missing_known_from.empty()
                                 ? fmt::format("{}{}, GPU {} of this history, is not enumerated by the driver since this "
                                               "restart (fallen off the bus? look for Xid 79 in dmesg)",
                                               uuid, bus, info.index)
                                 : fmt::format("{}{}, GPU {} of {}, is not enumerated by the driver (fallen off the bus? "
                                               "look for Xid 79 in dmesg)",
                                               uuid, bus, info.index, config_.missing_known_from));
    log_.error(fmt::format("GPU {} lost: {}; the other GPUs are sampled under their history's index (by UUID)", info.index,
                           slots.back().second));
  }
  std::stable_sort(slots.begin(), slots.end(), [](const auto& a, const auto& b) { return a.first.index < b.first.index; });
  std::vector<core::BurninGpu> watched;
  for (const auto& [info, why] : slots) watched.push_back(info);
  AlertThresholds thresholds = config_.thresholds;
  thresholds.interval_s = config_.interval_s;
  evaluator_ = std::make_unique<AlertEvaluator>(watched, thresholds);
  if (config_.baseline) evaluator_->set_baseline(*config_.baseline);
  if (!source_.simulated()) caller_ = std::make_unique<DeadlineCaller>(config_.call_deadline_s);
  std::vector<core::UnsupportedField> unsupported;
  for (const auto& [info, why] : slots) {
    GpuNow g;
    g.gpu = info;
    g.xid_watched = why.empty();  // a missing GPU reports nothing, Xids neither
    if (config_.baseline) {
      for (const auto& b : config_.baseline->gpus) {
        if (b.gpu == info.index) g.baseline = b;
      }
    }
    gpus_.push_back(std::move(g));
    unsupported_.emplace_back();
    needs_probe_.push_back(why.empty());
    missing_.push_back(why);
    if (why.empty() && !probe_slot(gpus_.size() - 1, unsupported)) {
      ++cost_.source_errors_total;
      log_.error(fmt::format("GPU {}: no answer to the probe within {} s (an NVML call hangs); asked again later",
                             info.index, config_.call_deadline_s));
    }
    // Never read by the monitor: recorded once, not as an absence in every sample.
    for (const char* field : {"tflops", "miscompares"}) {
      unsupported.push_back({info.index, field, "the monitor only watches (no load of its own)"});
    }
  }
  lost_asked_s_.assign(gpus_.size(), 0);
  if (auto e = store_.record_unsupported(unsupported)) return e->with_context("starting the history");

  const double origin_s = (static_cast<double>(clock_.unix_ms() - store_.started_unix_ms())) / 1000.0;
  segment_start_s_ = std::max(origin_s, store_.last_t_s() + config_.interval_s);
  last_prune_s_ = segment_start_s_ - config_.prune_every_s;  // prune once at start (a restart after a long pause)
  const auto origin = clock_.now();
  DaemonSummary summary;
  summary.first_t_s = segment_start_s_;
  log_.info(fmt::format("sampling {} GPU(s) every {} s through {}; history in {}", gpus_.size(), config_.interval_s,
                        source_.describe(), store_.path()));
  publish(clock_.unix_ms(), false, "starting");
  double t_s = segment_start_s_;
  for (std::uint64_t k = 0;; ++k) {
    if (signals.stop && signals.stop->load()) break;
    const double elapsed = platform::seconds(clock_.now() - origin);
    if (config_.duration_s > 0 && elapsed > config_.duration_s + 1e-9) break;
    // Ticks that could not run on time are dropped, not caught up (the next one runs now).
    const double due = static_cast<double>(k) * config_.interval_s;
    if (elapsed - due >= config_.interval_s) {
      const auto skipped = static_cast<std::uint64_t>(std::floor((elapsed - due) / config_.interval_s));
      cost_.samples_dropped_total += skipped;
      k += skipped;
    }
    t_s = std::max(t_s, segment_start_s_ + elapsed);
    if (k > 0 && t_s <= summary.last_t_s) t_s = summary.last_t_s + 1e-3;
    bool retry_lost = false;
    if (signals.status && signals.status->exchange(false)) {
      retry_lost = true;
      log_.notice(fmt::format("status: {} tick(s), {} sample(s), {} alert(s) firing, {} source error(s), {} store error(s)",
                              cost_.ticks_total, cost_.samples_total, alerts_.size(), cost_.source_errors_total,
                              cost_.store_errors_total));
    }
    const std::int64_t unix_ms = store_.started_unix_ms() + static_cast<std::int64_t>(std::llround(t_s * 1000));
    if (auto e = tick(t_s, unix_ms, t_s - segment_start_s_, retry_lost)) return *e;
    summary.last_t_s = t_s;
    ++summary.ticks;
    const bool on_time = cost_.last_tick_duration_s <= config_.interval_s || clock_.is_virtual();
    publish(unix_ms, on_time, on_time ? "" : fmt::format("the last tick took {:.3f} s, longer than the interval", cost_.last_tick_duration_s));
    const auto next = origin + platform::from_seconds(static_cast<double>(k + 1) * config_.interval_s);
    if (config_.duration_s > 0 && static_cast<double>(k + 1) * config_.interval_s > config_.duration_s + 1e-9) break;
    // Stop is seen within 200 ms of wall time (time_scale clock seconds pass per wall second).
    wait_until(clock_, next, platform::from_seconds(0.2 * std::max(1.0, config_.time_scale)), signals.stop);
  }
  summary.samples = cost_.samples_total;
  summary.alerts_at_end = alerts_.size();
  if (auto e = store_.finish(core::BurninStatus::completed, summary.last_t_s)) {
    return e->with_context("flushing the history");
  }
  publish(clock_.unix_ms(), false, "stopped");
  log_.info(fmt::format("stopped after {} tick(s); history flushed to {}", summary.ticks, store_.path()));
  return summary;
}

}  // namespace gpuvet::monitor
