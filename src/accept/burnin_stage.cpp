// burnin: the spec's soak on every GPU, then the clause decided from the stored run. A failure
// of the burn-in judge (a lost GPU, wrong GEMM results, a straggler, a hot card, memory repairs)
// fails it; throttling, ECC, Xid and NVLink errors fail it only beyond the spec's tolerances. A run
// cut short or a GPU the telemetry could not watch leaves it not run.
#include "accept/burnin_stage.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>

#include "accept/clauses.hpp"
#include "analysis/burnin_judge.hpp"
#include "analysis/soak_totals.hpp"
#include "telemetry/telemetry_store.hpp"

namespace gpuvet::accept {
namespace {

constexpr std::size_t kSeriesPoints = 240;  // per GPU and chart: enough for a page, small in report.json

// Findings whose threshold the spec sets with a tolerance; the rest of the judge's failures fail
// the clause as they are.
bool decided_by_tolerance(const std::string& code) {
  return code == "throttle_reasons" || code == "ecc_errors_new" || code == "xid_event" || code == "nvlink_errors_growing";
}

std::vector<SeriesData> series_of(const core::BurninRecord& record) {
  struct Chart {
    const char* title;
    const char* unit;
    core::Reading<double> core::TelemetrySample::*member;
  };
  static constexpr Chart kCharts[] = {{"GEMM throughput per GPU", "TFLOP/s", &core::TelemetrySample::tflops},
                                      {"GPU temperature", "°C", &core::TelemetrySample::gpu_temp_c},
                                      {"SM clock", "MHz", &core::TelemetrySample::sm_clock_mhz},
                                      {"Board power", "W", &core::TelemetrySample::power_w}};
  std::map<int, std::vector<const core::TelemetrySample*>> by_gpu;
  for (const auto& s : record.samples) by_gpu[s.gpu].push_back(&s);

  // Throttled periods (any GPU, thermal or hardware slowdown) and the events, on every chart.
  constexpr std::uint64_t kThrottle = core::clocks_event::hw_slowdown | core::clocks_event::sw_thermal_slowdown |
                                      core::clocks_event::hw_thermal_slowdown | core::clocks_event::hw_power_brake;
  std::vector<std::pair<double, double>> spans;
  for (const auto& s : record.samples) {
    if (!s.clocks_event_reasons.known() || (*s.clocks_event_reasons & kThrottle) == 0) continue;
    const double end = s.t_s + record.run.interval_s;
    if (!spans.empty() && s.t_s <= spans.back().second + record.run.interval_s) {
      spans.back().second = std::max(spans.back().second, end);
    } else {
      spans.emplace_back(s.t_s, end);
    }
  }
  std::vector<std::pair<double, std::string>> events;
  for (const auto& e : record.events) {
    events.emplace_back(e.t_s, e.kind == core::TelemetryEventKind::xid ? fmt::format("Xid {} GPU {}", e.code, e.gpu)
                                                                        : fmt::format("{} GPU {}", core::to_string(e.kind), e.gpu));
  }

  std::vector<SeriesData> out;
  for (const auto& chart : kCharts) {
    SeriesData d{chart.title, chart.unit, {}, {}, spans, events};
    for (const auto& [gpu, samples] : by_gpu) {
      std::vector<std::pair<double, double>> points;
      const std::size_t step = std::max<std::size_t>(1, samples.size() / kSeriesPoints);
      for (std::size_t i = 0; i < samples.size(); i += step) {
        const auto& v = samples[i]->*chart.member;
        if (v.known()) points.emplace_back(samples[i]->t_s, *v);
      }
      d.names.push_back(fmt::format("GPU {}", gpu));
      d.points.push_back(std::move(points));
    }
    out.push_back(std::move(d));
  }
  return out;
}

class BurninStage final : public Stage {
 public:
  explicit BurninStage(BurninStageSetup setup) : setup_(std::move(setup)) {}
  [[nodiscard]] std::string id() const override { return "burnin"; }
  [[nodiscard]] std::string title() const override { return "Burn-in under full load"; }
  [[nodiscard]] bool long_running() const override { return true; }
  [[nodiscard]] std::vector<ClauseResult> clauses(const spec::Spec& spec) const override { return burnin_clauses(spec); }

  StageRecord run(const StageContext& ctx, std::vector<ClauseResult> clauses) const override {
    StageRecord record;
    record.clauses = std::move(clauses);
    const auto& limits = ctx.spec.burnin->value;
    auto gpus = setup_.telemetry->gpus();
    auto path = gpus ? setup_.db_path() : core::Result<std::string>(gpus.error());
    if (!path) return error(std::move(record), path.error());

    probes::BurninPlan plan;
    plan.duration_s = limits.duration_s;
    plan.interval_s = std::min(setup_.interval_s, limits.duration_s);
    core::BurninRunInfo run = setup_.run;
    run.interval_s = plan.interval_s;
    run.planned_duration_s = plan.duration_s;
    run.started_unix_ms = setup_.clock->unix_ms();
    run.stress_backend = setup_.stress->describe();
    run.telemetry_source = setup_.telemetry->describe();
    const auto guard = setup_.guard_interrupts ? setup_.guard_interrupts() : nullptr;
    auto store = telemetry::TelemetryStore::create(*path, run, *gpus, *setup_.wall);
    if (!store) return error(std::move(record), store.error());
    auto outcome = probes::run_burnin(plan, *setup_.telemetry, *setup_.stress, *store.value(), *setup_.clock, setup_.observer,
                                      setup_.cancel);
    if (!outcome) return error(std::move(record), outcome.error());
    auto stored = store.value()->read_back();
    if (!stored) return error(std::move(record), stored.error());

    const auto judged = analysis::judge_burnin(*stored);
    record.findings = judged.findings;
    record.series = series_of(*stored);
    // A machine whose GPUs have NVLink ports must report their error counters.
    const bool has_nvlink = std::any_of(ctx.machine.gpus.begin(), ctx.machine.gpus.end(), [](const core::Gpu& g) {
      return g.nvlinks && !g.nvlinks->empty();
    });
    for (auto& c : record.clauses) decide(c, limits, *stored, judged, *outcome, *path, has_nvlink);
    // An interrupted soak is not a finished stage: a resumed accept runs it again (the database of
    // this attempt stays in the bundle).
    const bool interrupted = outcome->status == core::BurninStatus::interrupted;
    record.status = interrupted ? StageStatus::not_run : StageStatus::done;
    if (interrupted) record.reason = fmt::format("interrupted after {:.2f} h; rerun accept with the same --out to redo it", outcome->ended_t_s / 3600);
    return record;
  }

 private:
  static StageRecord error(StageRecord record, const core::Error& e) {
    record.status = StageStatus::error;
    record.reason = e.message;
    return record;
  }

  static void decide(ClauseResult& c, const spec::BurninLimits& limits, const core::BurninRecord& stored,
                     const core::BurninAssessment& judged, const probes::BurninOutcome& outcome, const std::string& db,
                     bool has_nvlink) {
    if (c.id != "burnin") return;
    const auto totals = analysis::soak_totals(stored);
    c.unit = "h";
    c.target = limits.duration_s / 3600;
    c.measured = totals.recorded_s / 3600;
    c.observed = fmt::format("{:.2f} h recorded on {} GPUs; throttled {}; {} new uncorrectable ECC; {} Xid; {} new NVLink errors{}",
                             totals.recorded_s / 3600, stored.gpus.size(),
                             totals.throttle_fraction ? fmt::format("{:.1f} % (worst GPU {})", *totals.throttle_fraction * 100, totals.throttle_gpu)
                                                      : std::string("unknown"),
                             totals.ecc_uncorrectable_new ? std::to_string(*totals.ecc_uncorrectable_new) : "unknown",
                             totals.xid_events,
                             totals.nvlink_errors_new ? std::to_string(*totals.nvlink_errors_new) : "not reported",
                             db == ":memory:" ? "" : " (telemetry: " + db + ")");

    std::vector<std::string> failures;
    for (const auto& f : judged.findings) {
      if (f.severity != core::Severity::fail || decided_by_tolerance(f.code)) continue;
      failures.push_back(f.message);
      c.findings.push_back(f.code);
    }
    // A GPU lost or stopped for safety fails the soak whatever Xid count the spec tolerates.
    for (const auto& e : stored.events) {
      if (e.kind != core::TelemetryEventKind::gpu_lost && e.kind != core::TelemetryEventKind::safety_stop) continue;
      failures.push_back(fmt::format("GPU {} at {:.2f} h: {}", e.gpu, e.t_s / 3600, e.message));
      const char* code = e.kind == core::TelemetryEventKind::gpu_lost ? "gpu_missing" : "safety_stop";
      if (std::find(c.findings.begin(), c.findings.end(), code) == c.findings.end()) c.findings.push_back(code);
    }
    auto over = [&](bool exceeded, const char* code, std::string message) {
      if (!exceeded) return;
      failures.push_back(std::move(message));
      if (std::find(c.findings.begin(), c.findings.end(), code) == c.findings.end()) c.findings.push_back(code);
    };
    std::vector<std::string> unknown;
    auto missing = [&](const std::vector<int>& gpus, const char* what) {
      if (gpus.empty()) return;
      std::string list;
      for (int g : gpus) list += (list.empty() ? "" : ",") + std::to_string(g);
      unknown.push_back(fmt::format("{} of GPU {}", what, list));
    };
    missing(totals.gpus_without_throttle_reasons, "throttle reasons");
    if (totals.throttle_fraction) {
      over(*totals.throttle_fraction > limits.throttle_max_fraction, "throttle_reasons",
           fmt::format("GPU {} throttled {:.1f} % of the time, more than the {:g} % tolerated", totals.throttle_gpu,
                       *totals.throttle_fraction * 100, limits.throttle_max_fraction * 100));
    }
    // A card without ECC (GeForce) has no uncorrectable-error counter: nothing to count, which is
    // not the same as a counter that could not be read.
    const bool no_ecc = !stored.gpus.empty() && std::all_of(stored.gpus.begin(), stored.gpus.end(), [&](const core::BurninGpu& g) {
      return std::any_of(stored.unsupported.begin(), stored.unsupported.end(), [&](const core::UnsupportedField& u) {
        return u.gpu == g.index && u.field == "ecc_uncorrected";
      });
    });
    // Totals over the GPUs that did report are a lower bound: exceeding the tolerance fails even when
    // some GPU's counter is missing (which alone leaves the clause not run).
    if (no_ecc) {
      c.observed += "; the GPUs have no ECC";
    } else {
      missing(totals.gpus_without_ecc, "uncorrectable ECC counters");
      if (totals.ecc_uncorrectable_new) {
        over(*totals.ecc_uncorrectable_new > static_cast<std::uint64_t>(limits.ecc_uncorrectable_max), "ecc_errors_new",
             fmt::format("{} new uncorrectable ECC errors, more than the {} tolerated", *totals.ecc_uncorrectable_new,
                         limits.ecc_uncorrectable_max));
      }
    }
    over(totals.xid_events > static_cast<std::uint64_t>(limits.xid_max), "xid_event",
         fmt::format("{} Xid events, more than the {} tolerated", totals.xid_events, limits.xid_max));
    if (has_nvlink) missing(totals.gpus_without_nvlink, "NVLink error counters");
    if (totals.nvlink_errors_new) {
      over(*totals.nvlink_errors_new > static_cast<std::uint64_t>(limits.nvlink_errors_max), "nvlink_errors_growing",
           fmt::format("{} new NVLink errors (CRC, recoveries), more than the {} tolerated", *totals.nvlink_errors_new, limits.nvlink_errors_max));
    }
    // Tolerance findings of the judge travel with the clause as evidence when they decided it.
    if (!failures.empty()) {
      c.status = ClauseStatus::fail;
    } else if (outcome.status != core::BurninStatus::completed || totals.recorded_s + stored.run.interval_s < limits.duration_s) {
      c.reason = fmt::format("the burn-in ended after {:.2f} h of the {:.2f} h the spec requires ({})", totals.recorded_s / 3600,
                             limits.duration_s / 3600, core::to_string(outcome.status));
    } else if (!judged.unverified.empty() || !unknown.empty()) {
      for (const auto& u : judged.unverified) unknown.push_back(u);
      c.reason = "could not verify: " + fmt::format("{}", fmt::join(unknown, "; "));
    } else {
      c.status = ClauseStatus::pass;
    }
    for (const auto& f : failures) c.reason += (c.reason.empty() ? "" : "; ") + f;
  }

  BurninStageSetup setup_;
};

}  // namespace

std::unique_ptr<Stage> make_burnin_stage(BurninStageSetup setup) { return std::make_unique<BurninStage>(std::move(setup)); }

}  // namespace gpuvet::accept
