// Health findings from rollups: the health judge fed rollup spans in time order (see
// trend_rollup_health.hpp). Run time is Unix time here (a history's rollups carry wall-clock
// hours), so the judge's moments are UTC dates.
#include "analysis/trend_rollup_health.hpp"

#include <algorithm>
#include <tuple>

#include "analysis/health/health_judge.hpp"

namespace gpuvet::analysis {

RollupHealth::RollupHealth(double interval_s, health::HealthLimits limits)
    : interval_s_(interval_s > 0 ? interval_s : 1.0), limits_(limits) {}

RollupHealth::Span RollupHealth::span_of(const RollupInput& r, bool prior) const {
  // The rollup's samples end its span (an hour the run began or ended in holds fewer).
  const double covered_s = std::min(r.span_s, static_cast<double>(r.samples) * interval_s_);
  const double from_s = static_cast<double>(r.unix_ms) / 1000.0;
  return Span{r, from_s, from_s + (prior ? r.span_s : covered_s), prior};
}

void RollupHealth::add(const RollupInput& r) {
  if (r.samples == 0) return;
  const Span s = span_of(r, false);
  const auto end = r.unix_ms + static_cast<std::int64_t>((s.to_s - s.from_s) * 1000);
  from_ms_ = std::min(from_ms_.value_or(r.unix_ms), r.unix_ms);
  to_ms_ = std::max(to_ms_.value_or(end), end);
  spans_.push_back(s);
}

void RollupHealth::add_before(const RollupInput& r) { spans_.push_back(span_of(r, true)); }

std::optional<std::pair<std::int64_t, std::int64_t>> RollupHealth::span() const {
  if (!from_ms_) return std::nullopt;
  return std::make_pair(*from_ms_, *to_ms_);
}

std::vector<core::Finding> RollupHealth::findings() const {
  std::vector<const Span*> order;
  for (const auto& s : spans_) order.push_back(&s);
  std::stable_sort(order.begin(), order.end(), [](const Span* a, const Span* b) {
    return std::tie(a->input.gpu, a->from_s) < std::tie(b->input.gpu, b->from_s);
  });
  health::HealthJudge judge(limits_, interval_s_);
  for (const auto* s : order) judge.on_rollup(s->input, s->from_s, s->to_s, s->prior);
  health::HealthView view;
  view.limits = limits_;
  view.now_s = to_ms_ ? static_cast<double>(*to_ms_) / 1000.0 : 0;
  view.words.wall_clock = true;
  view.words.during = "in the period";
  view.words.basis = "hourly rollups: NVLink links summed, throttle reasons not kept";
  return judge.findings(view);
}

std::vector<core::Finding> merge_period_findings(std::vector<core::Finding> raw, const std::vector<core::Finding>& rollups) {
  for (const auto& r : rollups) {
    auto same = std::find_if(raw.begin(), raw.end(), [&](const core::Finding& f) { return f.code == r.code && f.gpus == r.gpus; });
    if (same == raw.end()) {
      raw.push_back(r);
      continue;
    }
    same->message += "; before the raw samples: " + r.message;
    for (const auto& e : r.evidence) same->evidence.push_back(e);
    if (static_cast<int>(r.severity) > static_cast<int>(same->severity)) same->severity = r.severity;
  }
  return raw;
}

}  // namespace gpuvet::analysis
