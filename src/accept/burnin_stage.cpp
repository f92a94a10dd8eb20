// burnin: the spec's soak on every GPU, then the clause decided from the stored run. A failure
// of the burn-in judge (a lost GPU, wrong GEMM results, a straggler, a hot card, memory repairs)
// fails it; throttling, ECC, Xid and NVLink errors fail it only beyond the spec's tolerances. A run
// cut short or a GPU the telemetry could not watch leaves it not run.
#include "accept/burnin_stage.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <memory>

#include "accept/burnin_clause.hpp"
#include "accept/burnin_pipeline.hpp"
#include "accept/clauses.hpp"
#include "telemetry/telemetry_store.hpp"

namespace gpuvet::accept {
namespace {

constexpr std::size_t kSeriesPoints = 240;  // per GPU and chart: enough for a page, small in report.json

// The charts, from the store's per-minute rollups (never the samples): at most kSeriesPoints
// points per GPU and chart, consecutive minutes averaged when the run is longer.
core::Result<std::vector<SeriesData>> series_of(telemetry::TelemetryStore& store, const core::BurninRecord& header) {
  struct Chart {
    const char* title;
    const char* unit;
    std::optional<double> (*value)(const telemetry::MinuteRollup&);  // the minute's mean
  };
  static constexpr Chart kCharts[] = {
      {"GEMM throughput per GPU", "TFLOP/s", [](const telemetry::MinuteRollup& r) { return r.tflops; }},
      {"GPU temperature", "°C", [](const telemetry::MinuteRollup& r) { return r.gpu_temp_c.mean; }},
      {"SM clock", "MHz", [](const telemetry::MinuteRollup& r) { return r.sm_clock_mhz.mean; }},
      {"Board power", "W", [](const telemetry::MinuteRollup& r) { return r.power_w.mean; }}};
  constexpr std::size_t kChartCount = std::size(kCharts);
  const double interval = header.run.interval_s;
  const auto minutes = static_cast<std::size_t>(std::ceil(std::max(header.run.planned_duration_s, 60.0) / 60)) + 1;
  const std::size_t per_point = std::max<std::size_t>(1, (minutes + kSeriesPoints - 1) / kSeriesPoints);

  // Per GPU and chart: the sum of the means and time of the minutes in the open bucket.
  struct Bucket {
    std::int64_t index = -1;
    std::array<double, kChartCount> sum{}, t_sum{};
    std::array<std::size_t, kChartCount> n{};
  };
  std::map<int, std::array<std::vector<std::pair<double, double>>, kChartCount>> points;
  std::map<int, Bucket> open;
  std::vector<std::pair<double, double>> spans;  // throttled periods, any GPU (merged below)
  const auto close = [&](int gpu, Bucket& b) {
    for (std::size_t c = 0; c < kChartCount; ++c) {
      if (b.n[c] > 0) points[gpu][c].emplace_back(b.t_sum[c] / static_cast<double>(b.n[c]), b.sum[c] / static_cast<double>(b.n[c]));
    }
    b = Bucket{};
  };
  auto e = store.for_each_rollup([&](const telemetry::MinuteRollup& r) {
    points[r.gpu];
    Bucket& b = open[r.gpu];
    const auto index = r.minute / static_cast<std::int64_t>(per_point);
    if (b.index != index) {
      if (b.index >= 0) close(r.gpu, b);
      b.index = index;
    }
    for (std::size_t c = 0; c < kChartCount; ++c) {
      const auto v = kCharts[c].value(r);
      if (!v) continue;
      b.sum[c] += *v;
      b.t_sum[c] += r.t_s;
      ++b.n[c];
    }
    if (r.throttled > 0 && r.throttled_from_s && r.throttled_to_s) spans.emplace_back(*r.throttled_from_s, *r.throttled_to_s + interval);
  });
  if (e) return *e;
  for (auto& [gpu, b] : open) {
    if (b.index >= 0) close(gpu, b);
  }
  // Throttled periods (any GPU, thermal or hardware slowdown) and the events, on every chart.
  std::sort(spans.begin(), spans.end());
  std::vector<std::pair<double, double>> merged;
  for (const auto& [from, to] : spans) {
    if (!merged.empty() && from <= merged.back().second + interval) {
      merged.back().second = std::max(merged.back().second, to);
    } else {
      merged.emplace_back(from, to);
    }
  }
  std::vector<std::pair<double, std::string>> events;
  for (const auto& ev : header.events) {
    events.emplace_back(ev.t_s, ev.kind == core::TelemetryEventKind::xid ? fmt::format("Xid {} GPU {}", ev.code, ev.gpu)
                                                                          : fmt::format("{} GPU {}", core::to_string(ev.kind), ev.gpu));
  }

  std::vector<SeriesData> out;
  for (std::size_t c = 0; c < kChartCount; ++c) {
    SeriesData d{kCharts[c].title, kCharts[c].unit, {}, {}, merged, events};
    for (auto& [gpu, charts] : points) {
      d.names.push_back(fmt::format("GPU {}", gpu));
      d.points.push_back(std::move(charts[c]));
    }
    out.push_back(std::move(d));
  }
  return out;
}

// The link traffic's busbw over time, one line per collective, beside the temperature and clock
// charts (the same throttled spans and events): at most kSeriesPoints points, consecutive traffic
// intervals averaged when the run is longer. Nothing without traffic.
std::optional<SeriesData> busbw_series(const core::BurninRecord& record, const std::vector<SeriesData>& charts) {
  if (record.traffic.empty()) return std::nullopt;
  const std::size_t per_point = std::max<std::size_t>(1, (record.traffic.size() + kSeriesPoints - 1) / kSeriesPoints);
  std::map<std::string, std::vector<std::pair<double, double>>> lines;
  std::map<std::string, std::array<double, 3>> open;  // op -> sum of t, sum of busbw, count
  const auto close = [&](const std::string& op) {
    auto& [t_sum, sum, n] = open[op];
    if (n > 0) lines[op].emplace_back(t_sum / n, sum / n);
    t_sum = sum = n = 0;
  };
  for (std::size_t i = 0; i < record.traffic.size(); ++i) {
    for (const auto& c : record.traffic[i].collectives) {
      if (!c.busbw_gbps.known()) continue;
      auto& [t_sum, sum, n] = open[c.op];
      t_sum += record.traffic[i].t_s;
      sum += *c.busbw_gbps;
      n += 1;
    }
    if ((i + 1) % per_point == 0) {
      for (auto& [op, bucket] : open) close(op);
    }
  }
  for (auto& [op, bucket] : open) close(op);
  if (lines.empty()) return std::nullopt;
  SeriesData d{"Collective busbw under load", "GB/s", {}, {}, {}, {}};
  if (!charts.empty()) {
    d.spans = charts.front().spans;
    d.events = charts.front().events;
  }
  for (auto& [op, points] : lines) {
    d.names.push_back(op);
    d.points.push_back(std::move(points));
  }
  return d;
}

// Each GPU's steady state under load as the judge measured it (what trend and monitor --baseline
// compare a history with).
std::vector<BurninSteadyState> steady_state_of(const core::BurninAssessment& assessment) {
  const auto known = [](const core::Reading<double>& r) { return r ? std::optional<double>(*r) : std::nullopt; };
  std::vector<BurninSteadyState> out;
  for (const auto& g : assessment.gpus) {
    out.push_back({g.gpu, known(g.median_temp_c), known(g.median_power_w), known(g.median_sm_clock_mhz)});
  }
  return out;
}

analysis::BurninThresholds thresholds_of(const spec::BurninLimits& limits) {
  analysis::BurninThresholds t;
  t.busbw_hot_min_share = limits.busbw_hot_min_fraction;
  return t;
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

    SoakSetup soak;
    soak.plan.duration_s = limits.duration_s;
    soak.plan.interval_s = std::min(setup_.interval_s, limits.duration_s);
    soak.plan.traffic = limits.traffic;
    soak.plan.traffic.interval_s = std::max(soak.plan.interval_s, std::min(limits.traffic.interval_s, limits.duration_s));
    soak.run = setup_.run;
    soak.gpus = std::move(gpus).value();
    soak.db_path = *path;
    soak.clock = setup_.clock.get();
    soak.wall = setup_.wall.get();
    soak.observer = setup_.observer;
    soak.cancel = setup_.cancel;
    const auto guard = setup_.guard_interrupts ? setup_.guard_interrupts() : nullptr;
    auto ran = run_soak(std::move(soak), *setup_.telemetry, *setup_.stress, setup_.traffic.get());
    if (!ran) return error(std::move(record), ran.error());
    telemetry::TelemetryStore& store = *ran->store;
    const probes::BurninOutcome& outcome = ran->outcome;
    // One streaming pass over what the store holds: the judge and the spec's totals.
    auto judged = judge_stored(
        [&](const telemetry::HeaderSink& on_header, const telemetry::SampleSink& on_sample) {
          return store.read_back(on_header, on_sample);
        },
        thresholds_of(limits), true);
    if (!judged) return error(std::move(record), judged.error());
    const core::BurninRecord* stored = &judged->record;
    record.findings = judged->assessment.findings;
    auto series = series_of(store, *stored);
    if (!series) return error(std::move(record), series.error());
    record.series = std::move(series).value();
    if (auto busbw = busbw_series(*stored, record.series)) record.series.push_back(std::move(*busbw));
    record.steady_state = steady_state_of(judged->assessment);
    // A machine whose GPUs have NVLink ports must report their error counters.
    const bool has_nvlink = std::any_of(ctx.machine.gpus.begin(), ctx.machine.gpus.end(), [](const core::Gpu& g) {
      return g.nvlinks && !g.nvlinks->empty();
    });
    for (auto& c : record.clauses) {
      decide_burnin_clause(c, {limits, *stored, judged->assessment, *judged->totals, outcome.status, *path, has_nvlink});
    }
    // An interrupted soak is not a finished stage: a resumed accept runs it again (the database of
    // this attempt stays in the bundle).
    const bool interrupted = outcome.status == core::BurninStatus::interrupted;
    record.status = interrupted ? StageStatus::not_run : StageStatus::done;
    if (interrupted) record.reason = fmt::format("interrupted after {:.2f} h; rerun accept with the same --out to redo it", outcome.ended_t_s / 3600);
    return record;
  }

 private:
  static StageRecord error(StageRecord record, const core::Error& e) {
    record.status = StageStatus::error;
    record.reason = e.message;
    return record;
  }

  BurninStageSetup setup_;
};

}  // namespace

std::unique_ptr<Stage> make_burnin_stage(BurninStageSetup setup) { return std::make_unique<BurninStage>(std::move(setup)); }

}  // namespace gpuvet::accept
