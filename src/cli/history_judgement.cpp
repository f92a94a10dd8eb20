// One pass over a history database into the judges (see history_judgement.hpp).
#include "cli/history_judgement.hpp"

#include <algorithm>
#include <memory>

#include <fmt/format.h>

#include "analysis/burnin_judge.hpp"
#include "analysis/trend_history.hpp"
#include "analysis/trend_rollup_gap.hpp"
#include "analysis/trend_rollup_health.hpp"
#include "cli/trend_rollups.hpp"
#include "telemetry/history_reader.hpp"

namespace gpuvet::cli {

namespace {

// "6.0 h", "7.0 d".
std::string span_text(double seconds) {
  return seconds < 48 * 3600 ? fmt::format("{:.1f} h", seconds / 3600) : fmt::format("{:.1f} d", seconds / 86400);
}

}  // namespace

core::Result<HistoryJudgement> judge_history(const std::string& db, double period_s) {
  std::optional<telemetry::HistorySpan> span;
  std::int64_t from = 0;
  std::int64_t to = 0;
  std::unique_ptr<analysis::TrendAccumulator> trend;
  std::unique_ptr<analysis::BurninJudge> judge;
  HistoryJudgement out;
  telemetry::HistorySinks sinks;
  sinks.on_span = [&](const telemetry::HistorySpan& s) {
    span = s;
    if (!s.last_unix_ms) return;
    to = *s.last_unix_ms;
    from = std::max(*s.first_unix_ms, to - static_cast<std::int64_t>(period_s * 1000));
  };
  double interval_s = 1;
  sinks.on_header = [&](const core::BurninRecord& header) {
    interval_s = header.run.interval_s;
    const double bucket = analysis::trend_bucket_s(static_cast<double>(to - from) / 1000);
    trend = std::make_unique<analysis::TrendAccumulator>(from, to, bucket, header.run.interval_s, header.gpus);
    judge = std::make_unique<analysis::BurninJudge>(header.run, header.gpus);
    judge->use_wall_clock();  // a history's moments are dates, not offsets into a run
    for (const auto& e : header.events) {
      const auto unix_ms = header.run.started_unix_ms + static_cast<std::int64_t>(e.t_s * 1000);
      if (unix_ms < from || unix_ms > to) continue;
      trend->add_event(unix_ms, e);
      judge->on_event(e);
    }
  };
  analysis::RawHourTally raw_hours;  // to recover the part of an hour rollup no raw sample covers
  std::optional<std::int64_t> raw_from;
  sinks.on_sample = [&](const core::TelemetrySample& s) {
    raw_hours.add(s);
    if (s.unix_ms < from) return;
    raw_from = std::min(raw_from.value_or(s.unix_ms), s.unix_ms);
    trend->add_sample(s);
    judge->on_sample(s);
  };
  double rollup_gpu_s = 0;
  std::optional<analysis::RollupHealth> rollup_health;
  sinks.on_hour_rollup = [&](const telemetry::HourRollup& r, std::int64_t hour_unix_ms) {
    if (!rollup_health) rollup_health.emplace(interval_s);
    if (hour_unix_ms + 3600000 <= from) {
      // The hour just before the period: what an episode's tail in its first hour is measured against.
      if (hour_unix_ms + 3600000 > from - 3600000) rollup_health->add_before(rollup_input(r, hour_unix_ms));
      return;
    }
    const analysis::RollupInput in = rollup_input(r, hour_unix_ms);
    // Only what no raw sample holds: the whole hour, or its part before the first raw sample.
    const auto part = raw_hours.remainder(in, r.hour);
    if (!part || part->samples == 0) return;
    trend->add_rollup(*part);
    rollup_health->add(*part);
    rollup_gpu_s += static_cast<double>(part->samples) * interval_s;
  };
  auto record = telemetry::read_history(db, sinks);
  if (!record) return record.error();
  if (!span || !span->last_unix_ms || !judge) {
    return core::input_error(fmt::format("{}: holds no samples and no rollups yet: nothing to report on", db));
  }
  out.record = std::move(record).value();
  out.history = trend->finish();
  out.assessment = judge->finish(out.record.run.status);
  if (rollup_health) {
    out.assessment.findings = analysis::merge_period_findings(std::move(out.assessment.findings), rollup_health->findings());
    out.rollup_span = rollup_health->span();
  }
  if (raw_from) out.raw_span = std::make_pair(*raw_from, to);
  const double covered_s = static_cast<double>(to - from) / 1000;
  if (covered_s + 60 < period_s && period_s < kMaxHistoryPeriodS) {
    out.notes.push_back(fmt::format("The history covers {} of the {} asked (from its first record).", span_text(covered_s), span_text(period_s)));
  }
  if (rollup_gpu_s > 0) {
    out.notes.push_back(fmt::format("{:.0f} GPU-hours come from the hourly rollups (raw samples pruned by the retention): means per "
                                    "hour (an hour the raw samples cover in part: the rollup less those samples), error counters "
                                    "as their growth in the hour; Xid and other events are kept as long.",
                                    rollup_gpu_s / 3600));
  }
  return out;
}

}  // namespace gpuvet::cli
