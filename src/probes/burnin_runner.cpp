// The burn-in loop: one tick per interval, samples and events to the store as they arrive; with
// traffic, one traffic interval every plan.traffic.interval_s.
#include "probes/burnin_runner.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace gpuvet::probes {

namespace {

class Runner {
 public:
  Runner(const BurninPlan& plan, api::TelemetrySource& source, api::StressBackend& stress,
         telemetry::TelemetryStore& store, platform::Clock& clock, BurninObserver* observer, api::TrafficBackend* traffic)
      : plan_(plan), source_(source), stress_(stress), store_(store), clock_(clock), observer_(observer), traffic_(traffic) {}

  core::Result<BurninOutcome> run(const std::atomic<bool>* cancel);

 private:
  std::optional<core::Error> record(const core::TelemetryEvent& event) {
    if (observer_) observer_->on_event(event);
    if (auto e = store_.append(event)) return e;
    return store_.commit();  // events are rare and matter: durable at once
  }
  std::optional<core::Error> stop_gpu(std::size_t slot, double t_s, core::TelemetryEventKind kind, int code,
                                      const std::string& message) {
    const int gpu = plan_.gpus[slot];
    if (std::find(outcome_.stopped.begin(), outcome_.stopped.end(), gpu) == outcome_.stopped.end()) {
      stress_.stop(gpu, t_s);
      outcome_.stopped.push_back(gpu);
    }
    active_[slot] = false;
    return record({gpu, t_s, kind, code, message});
  }
  std::optional<core::Error> handle_events(double t_s);
  std::optional<core::Error> sample_gpu(std::size_t slot, double t_s);
  std::optional<core::Error> poll_traffic(double t_s);
  [[nodiscard]] BurninTick tick(double t_s) const { return {t_s, plan_.duration_s, &latest_, &outcome_.stopped}; }

  BurninPlan plan_;
  api::TelemetrySource& source_;
  api::StressBackend& stress_;
  telemetry::TelemetryStore& store_;
  platform::Clock& clock_;
  BurninObserver* observer_;
  api::TrafficBackend* traffic_;   // null, or running when plan_.traffic.on()
  double traffic_from_s_ = 0;      // start of the open traffic interval
  std::uint64_t traffic_intervals_ = 0;
  std::vector<bool> active_;       // still sampled (not lost)
  std::vector<bool> loaded_;       // load still running
  std::vector<core::BurninGpu> info_;
  std::vector<core::TelemetrySample> latest_;
  BurninOutcome outcome_;
};

std::optional<core::Error> Runner::handle_events(double t_s) {
  for (const auto& event : source_.drain_events(t_s)) {
    if (auto e = record(event)) return e;
    const auto it = std::find(plan_.gpus.begin(), plan_.gpus.end(), event.gpu);
    if (it == plan_.gpus.end()) continue;
    const auto slot = static_cast<std::size_t>(it - plan_.gpus.begin());
    const bool fatal = event.kind == core::TelemetryEventKind::gpu_lost ||
                       (event.kind == core::TelemetryEventKind::xid && event.code == 79);
    if (fatal && loaded_[slot]) {
      loaded_[slot] = false;
      if (auto e = stop_gpu(slot, t_s, core::TelemetryEventKind::safety_stop, event.code,
                            "load stopped: the GPU fell off the bus; the other GPUs keep going")) {
        return e;
      }
    }
    if (event.kind == core::TelemetryEventKind::gpu_lost) active_[slot] = false;
  }
  return std::nullopt;
}

std::optional<core::Error> Runner::sample_gpu(std::size_t slot, double t_s) {
  const int gpu = plan_.gpus[slot];
  core::TelemetrySample s = source_.sample(gpu, t_s);
  s.gpu = gpu;
  s.t_s = t_s;
  s.unix_ms = clock_.unix_ms();
  const api::StressStatus status = stress_.poll(gpu, t_s);
  if (loaded_[slot]) {
    s.tflops = status.tflops;
    s.miscompares = status.miscompares;
    if (!status.running) {
      loaded_[slot] = false;
      if (auto e = record({gpu, t_s, core::TelemetryEventKind::stress_error, 0,
                           status.error.empty() ? "the load stopped by itself" : status.error})) {
        return e;
      }
      if (std::find(outcome_.stopped.begin(), outcome_.stopped.end(), gpu) == outcome_.stopped.end()) {
        outcome_.stopped.push_back(gpu);
      }
    }
  } else {
    s.tflops = core::Absent{"no load on this GPU (stopped)"};
    s.miscompares = core::Absent{"no load on this GPU (stopped)"};
  }
  if (auto e = store_.append(s)) return e;
  ++outcome_.samples;
  // Safety: never let the load drive a GPU into its hardware shutdown.
  const auto& limit = info_[slot].shutdown_temp_c;
  if (loaded_[slot] && s.gpu_temp_c.known() && limit.known() && *s.gpu_temp_c >= *limit - plan_.shutdown_margin_c) {
    loaded_[slot] = false;
    if (auto e = stop_gpu(slot, t_s, core::TelemetryEventKind::safety_stop, 0,
                          fmt::format("load stopped at {:.0f} °C, within {:.0f} °C of the shutdown temperature {:.0f} °C",
                                      *s.gpu_temp_c, plan_.shutdown_margin_c, *limit))) {
      return e;
    }
    active_[slot] = true;  // keep watching it cool down
  }
  latest_[slot] = std::move(s);
  return std::nullopt;
}

// Closes the open traffic interval: what the traffic achieved, and every loaded GPU's digest of the
// same cross-check GEMM (inputs seeded by the interval's number, so equal on every GPU).
std::optional<core::Error> Runner::poll_traffic(double t_s) {
  api::TrafficStatus status = traffic_->poll(t_s);
  core::TrafficInterval interval{traffic_from_s_, t_s, std::move(status.collectives), std::move(status.gpus)};
  ++traffic_intervals_;
  for (auto& g : interval.gpus) {
    const auto it = std::find(plan_.gpus.begin(), plan_.gpus.end(), g.gpu);
    const bool loaded = it != plan_.gpus.end() && loaded_[static_cast<std::size_t>(it - plan_.gpus.begin())];
    g.gemm_digest = loaded ? stress_.cross_check(g.gpu, traffic_intervals_, t_s)
                           : core::Reading<std::uint64_t>::absent("no load on this GPU (stopped)");
  }
  if (!status.running && !status.error.empty()) {
    const auto stopped = core::Absent{"the traffic stopped: " + status.error};
    for (auto& c : interval.collectives) c.busbw_gbps = stopped;
    for (auto& g : interval.gpus) g.send_gbps = g.recv_gbps = g.h2d_gbps = g.d2h_gbps = stopped;
  }
  traffic_from_s_ = t_s;
  return store_.append(interval);
}

core::Result<BurninOutcome> Runner::run(const std::atomic<bool>* cancel) {
  auto gpus = source_.gpus();
  if (!gpus) return gpus.error();
  if (plan_.gpus.empty()) {
    for (const auto& g : *gpus) plan_.gpus.push_back(g.index);
  }
  for (int g : plan_.gpus) {
    auto it = std::find_if(gpus->begin(), gpus->end(), [&](const core::BurninGpu& b) { return b.index == g; });
    if (it == gpus->end()) return core::usage_error(fmt::format("no GPU {} on this machine", g));
    info_.push_back(*it);
  }
  const std::size_t n = plan_.gpus.size();
  active_.assign(n, true);
  loaded_.assign(n, false);
  latest_.resize(n);
  std::vector<core::UnsupportedField> unsupported;
  for (int g : plan_.gpus) {
    for (auto& f : source_.probe(g)) unsupported.push_back(std::move(f));
  }
  if (auto e = store_.record_unsupported(unsupported)) return *e;

  const auto origin = clock_.now();
  for (std::size_t slot = 0; slot < n; ++slot) {
    api::StressConfig config = plan_.stress;
    config.pci_bus_id = info_[slot].pci_bus_id.value_or("");
    if (auto error = stress_.start(plan_.gpus[slot], config, 0.0)) {
      if (auto e = record({plan_.gpus[slot], 0.0, core::TelemetryEventKind::stress_error, 0, error->message})) return *e;
      outcome_.stopped.push_back(plan_.gpus[slot]);
    } else {
      loaded_[slot] = true;
    }
  }
  if (plan_.traffic.on()) {
    if (traffic_ == nullptr) return core::usage_error("the burn-in asks for link traffic but has no traffic backend");
    api::TrafficConfig config;
    config.settings = plan_.traffic;
    config.gpus = plan_.gpus;
    if (auto error = traffic_->start(config, 0.0)) {
      for (std::size_t slot = 0; slot < n; ++slot) {
        if (loaded_[slot]) stress_.stop(plan_.gpus[slot], 0.0);
      }
      return error->with_context("starting the link traffic");
    }
  }
  const auto ticks = static_cast<long long>(std::floor(plan_.duration_s / plan_.interval_s + 1e-9));
  double t_s = 0;
  outcome_.status = core::BurninStatus::completed;
  for (long long k = 1; k <= ticks; ++k) {
    clock_.sleep_until(origin + platform::from_seconds(static_cast<double>(k) * plan_.interval_s));
    if (cancel && cancel->load()) {
      outcome_.status = core::BurninStatus::interrupted;
      break;
    }
    // The tick's real run time: when sampling falls behind its schedule, samples say so.
    t_s = platform::seconds(clock_.now() - origin);
    if (auto e = handle_events(t_s)) return *e;
    for (std::size_t slot = 0; slot < n; ++slot) {
      if (!active_[slot]) continue;
      if (auto e = sample_gpu(slot, t_s)) return *e;
    }
    if (plan_.traffic.on() && t_s - traffic_from_s_ >= plan_.traffic.interval_s - 1e-9) {
      if (auto e = poll_traffic(t_s)) return *e;
    }
    if (auto e = store_.end_tick()) return *e;
    if (observer_) observer_->on_tick(tick(t_s));
    if (std::none_of(active_.begin(), active_.end(), [](bool a) { return a; })) {
      outcome_.status = core::BurninStatus::failed;  // every GPU is gone: nothing left to watch
      break;
    }
  }
  if (plan_.traffic.on()) {
    // The last, shorter interval, then the links go idle before the GEMMs stop.
    if (t_s > traffic_from_s_ + 1e-9) {
      if (auto e = poll_traffic(t_s)) return *e;
    }
    traffic_->stop(t_s);
  }
  for (std::size_t slot = 0; slot < n; ++slot) {
    if (loaded_[slot]) stress_.stop(plan_.gpus[slot], t_s);
  }
  outcome_.ended_t_s = t_s;
  if (auto e = store_.finish(outcome_.status, t_s)) return *e;
  if (observer_) observer_->on_finish(tick(t_s));
  return outcome_;
}

}  // namespace

core::Result<BurninOutcome> run_burnin(const BurninPlan& plan, api::TelemetrySource& source,
                                       api::StressBackend& stress, telemetry::TelemetryStore& store,
                                       platform::Clock& clock, BurninObserver* observer,
                                       const std::atomic<bool>* cancel, api::TrafficBackend* traffic) {
  if (plan.interval_s <= 0 || plan.duration_s <= 0) return core::usage_error("duration and interval must be positive");
  if (plan.traffic.on() && !(plan.traffic.interval_s > 0 && plan.traffic.share > 0 && plan.traffic.share <= 1)) {
    return core::usage_error("traffic: the interval must be positive and the share in (0, 1]");
  }
  Runner runner(plan, source, stress, store, clock, observer, traffic);
  return runner.run(cancel);
}

}  // namespace gpuvet::probes
