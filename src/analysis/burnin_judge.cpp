// The streaming burn-in judge: per-sample updates of each GPU's running state, then the rules in
// a fixed order and what the run could not verify.
#include "analysis/burnin_judge.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <numeric>

#include "analysis/burnin_state.hpp"

namespace gpuvet::analysis {

namespace {

using burnin::GpuState;

constexpr std::uint64_t kThermal = core::clocks_event::throttling;

std::optional<double> opt(const core::Reading<double>& r) { return r.known() ? std::optional<double>(*r) : std::nullopt; }

// A loaded sample after the warm-up: into the steady-state distributions.
void add_steady(GpuState& g, const burnin::PendingSteady& p) {
  if (p.tflops) g.tflops.add(*p.tflops, p.t_s);
  if (p.temp_c) g.temp_c.add(*p.temp_c, p.t_s);
  if (p.sm_clock_mhz) g.sm_clock_mhz.add(*p.sm_clock_mhz, p.t_s);
  if (p.power_w) {
    g.power_w.add(*p.power_w, p.t_s);
    if (!p.thermal) g.power_unthrottled_w.add(*p.power_w, p.t_s);
  }
  ++g.steady_loaded;
  if (g.loaded_first_s < 0 || p.t_s < g.loaded_first_s) g.loaded_first_s = p.t_s;
  g.loaded_last_s = std::max(g.loaded_last_s, p.t_s);
}

void coverage(const burnin::Context& ctx, core::BurninStatus status, BurninAssessment& a) {
  if (status != core::BurninStatus::completed && ctx.monitor) {
    a.unverified.push_back(fmt::format("the monitor did not stop cleanly (status: {}: killed, or still running): {} was recorded; "
                                       "a monitor has no planned duration",
                                       core::to_string(status), burnin::hms(a.recorded_s)));
  } else if (status != core::BurninStatus::completed) {
    a.unverified.push_back(fmt::format("the burn-in did not complete (status: {}): {} of the planned {} was recorded",
                                       core::to_string(status), burnin::hms(a.recorded_s),
                                       burnin::hms(ctx.run.planned_duration_s)));
  }
  for (const auto& line : ctx.events.stress_errors) a.unverified.push_back(line);
  const auto& lost = ctx.events.lost_or_79;  // said by gpu_lost or xid_event
  for (const auto& gpu : ctx.gpus) {
    auto it = ctx.series.find(gpu.index);
    if (it == ctx.series.end()) {
      if (!lost.count(gpu.index)) a.unverified.push_back(fmt::format("GPU {}: no telemetry was recorded", gpu.index));
      continue;
    }
    if (!it->second.any_temp && !lost.count(gpu.index)) {
      a.unverified.push_back(fmt::format("GPU {}: temperature could not be read ({})", gpu.index, it->second.first_temp_reason));
    }
  }
}

BurninGpuSummary summarize(const burnin::Context& ctx, const GpuState& s) {
  BurninGpuSummary out;
  out.gpu = s.gpu;
  out.samples = s.samples;
  const auto med = [&ctx](const burnin::Histogram& h) -> core::Reading<double> {
    if (auto m = h.median()) return *m;
    return core::Reading<double>::absent(ctx.monitor ? "no sample at 80 % utilization or more" : "no steady-state sample under load");
  };
  out.median_tflops = ctx.monitor ? core::Reading<double>::absent("a monitor runs no load of its own") : med(s.tflops);
  out.median_temp_c = med(s.temp_c);
  out.median_power_w = med(s.power_w);
  out.median_sm_clock_mhz = med(s.sm_clock_mhz);
  out.max_temp_c = s.max_temp_c ? core::Reading<double>(*s.max_temp_c) : core::Reading<double>::absent("temperature never read");
  out.stopped = ctx.events.stopped.count(s.gpu) > 0;
  return out;
}

}  // namespace

struct BurninJudge::State {
  core::BurninRunInfo run;
  std::vector<core::BurninGpu> gpus;
  BurninThresholds thresholds;
  double interval_s = 1;
  double sure_steady_s = 0;   // the warm-up ends at or before this, whatever the run's length
  std::map<int, GpuState> series;
  burnin::EventTally events;
  double tick_s = 0;          // the tick being gathered for clock_desync
  std::vector<std::pair<int, double>> tick_clocks;
  double recorded_s = 0;
  bool monitor = false;       // a monitor's history (is_monitor_history)
  health::HealthJudge health;
  burnin::TrafficTally traffic;
  std::map<int, std::string> names;  // model names: cross-check digests compare within a model
};

BurninJudge::BurninJudge(core::BurninRunInfo run, std::vector<core::BurninGpu> gpus, BurninThresholds thresholds)
    : state_(std::make_unique<State>()) {
  State& st = *state_;
  st.interval_s = run.interval_s > 0 ? run.interval_s : 1.0;
  st.monitor = is_monitor_history(run);
  wall_clock_ = st.monitor;
  st.run = std::move(run);
  st.gpus = std::move(gpus);
  st.thresholds = thresholds;
  st.health = health::HealthJudge(thresholds.health, st.interval_s);
  for (const auto& g : st.gpus) st.names[g.index] = g.name.value_or("");
  // warm-up = min(cap, 10 % of max(planned, last sample)): never later than the cap.
  st.sure_steady_s = thresholds.warmup_s;
}

BurninJudge::~BurninJudge() = default;

void BurninJudge::on_sample(const core::TelemetrySample& s) {
  State& st = *state_;
  if (s.t_s != st.tick_s) {
    burnin::desync_tick(st.series, st.tick_s, st.tick_clocks, st.thresholds, st.interval_s);
    st.tick_clocks.clear();
    st.tick_s = s.t_s;
  }
  st.recorded_s = std::max(st.recorded_s, s.t_s);
  auto [it, inserted] = st.series.try_emplace(s.gpu);
  GpuState& g = it->second;
  if (inserted) {
    g.gpu = s.gpu;
    g.first_s = s.t_s;
    if (!s.gpu_temp_c.known()) g.first_temp_reason = s.gpu_temp_c.reason();
  }
  ++g.samples;
  g.last_s = s.t_s;
  // A burn-in's load is its GEMM (TFLOP/s known); a monitor's is the users' jobs, by utilization.
  const bool loaded = s.tflops.known() ||
                      (st.monitor && s.util_gpu_pct.known() && *s.util_gpu_pct >= kMonitorLoadedUtilPct);
  if (s.gpu_temp_c.known()) {
    g.any_temp = true;
    g.max_temp_c = std::max(g.max_temp_c.value_or(*s.gpu_temp_c), *s.gpu_temp_c);
    if (loaded) g.loaded_temp_c.add(*s.gpu_temp_c, s.t_s);
  }
  if (loaded) {
    burnin::PendingSteady p{s.t_s, opt(s.tflops), opt(s.gpu_temp_c), opt(s.power_w), opt(s.sm_clock_mhz),
                            s.clocks_event_reasons.known() && (*s.clocks_event_reasons & kThermal) != 0};
    if (s.t_s >= st.sure_steady_s) {
      add_steady(g, p);
    } else {
      g.pending.push_back(p);  // whether it counts depends on the run's length
    }
    if (s.sm_clock_mhz.known()) st.tick_clocks.emplace_back(s.gpu, *s.sm_clock_mhz);
  }
  burnin::observe_miscompares(g, s);
  st.health.on_sample(s);
  if (!st.monitor) st.traffic.on_sample(s);
}

void BurninJudge::on_traffic(const core::TrafficInterval& interval) {
  if (!state_->monitor) state_->traffic.on_interval(interval, state_->names);
}

void BurninJudge::on_event(const core::TelemetryEvent& e) {
  burnin::EventTally& ev = state_->events;
  state_->health.on_event(e);
  if (e.kind == core::TelemetryEventKind::gpu_lost || (e.kind == core::TelemetryEventKind::xid && e.code == 79)) {
    ev.lost_or_79.insert(e.gpu);
  }
  if (e.kind == core::TelemetryEventKind::safety_stop && e.code != 79) ev.safety_stops.push_back(e);
  if (e.kind == core::TelemetryEventKind::stress_error) {
    ev.stress_errors.push_back(fmt::format("GPU {}: the GEMM load did not run to the end: {}", e.gpu, e.message));
  }
  if (e.kind == core::TelemetryEventKind::safety_stop || e.kind == core::TelemetryEventKind::stress_error ||
      e.kind == core::TelemetryEventKind::gpu_lost) {
    ev.stopped.insert(e.gpu);
  }
}

BurninAssessment BurninJudge::finish(core::BurninStatus status) const {
  const State& st = *state_;
  // The open tick and the warm-up's borderline samples, on a copy: finish() may come again.
  std::map<int, GpuState> series = st.series;
  auto clocks = st.tick_clocks;
  burnin::desync_tick(series, st.tick_s, clocks, st.thresholds, st.interval_s);
  const double planned = std::max(st.run.planned_duration_s, st.recorded_s);
  const double warmup_end_s = std::min(st.thresholds.warmup_s, 0.1 * planned);
  for (auto& [gpu, g] : series) {
    for (const auto& p : g.pending) {
      if (p.t_s >= warmup_end_s) add_steady(g, p);
    }
    g.pending.clear();
  }

  const burnin::Context ctx{st.run,         st.gpus,     st.thresholds, series,     st.events, st.health, st.interval_s,
                            wall_clock_,    st.monitor,  &st.traffic,   warmup_end_s};
  BurninAssessment a;
  a.recorded_s = st.recorded_s;
  burnin::health_rule(ctx, a.findings);
  burnin::safety_stop_rule(ctx, a.findings);
  burnin::miscompare_rule(ctx, a.findings);
  // The load rules judge gpuvet's own GEMM load; a monitor's history holds the users' jobs, whose
  // peers are judged by the trend judge's rules (hotter/slower_than_peers, utilization_below_peers).
  if (!st.monitor) {
    burnin::straggler_rule(ctx, a.findings);
    burnin::clock_desync_rule(ctx, a.findings);
    burnin::thermal_rule(ctx, a.findings);
    burnin::power_rule(ctx, a.findings);
    burnin::link_traffic_rule(ctx, a.findings);
    burnin::traffic_straggler_rule(ctx, a.findings);
    burnin::busbw_heat_rule(ctx, a.findings);
    burnin::sdc_rule(ctx, a.findings);
    burnin::traffic_coverage(ctx, a.unverified);
  }
  coverage(ctx, status, a);
  for (const auto& [gpu, s] : series) a.gpus.push_back(summarize(ctx, s));
  return a;
}

BurninAssessment judge_burnin(const core::BurninRecord& record, const BurninThresholds& thresholds) {
  BurninJudge judge(record.run, record.gpus, thresholds);
  for (const auto& interval : record.traffic) judge.on_traffic(interval);
  std::vector<std::size_t> order(record.samples.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return record.samples[a].t_s < record.samples[b].t_s; });
  for (std::size_t i : order) judge.on_sample(record.samples[i]);
  for (const auto& e : record.events) judge.on_event(e);
  return judge.finish(record.run.status);
}

}  // namespace gpuvet::analysis
