// The one health judge: every health rule (health_rules.hpp) over each GPU's samples, rollups and
// events, judged for a period or a live moment. Fed by three small feeders: the stored burn-in or
// monitor history sample by sample (analysis/burnin_judge, for `burnin`, `report --db`, accept and
// `trend`), the hourly rollups of hours whose raw samples were pruned (`trend`, `report --db`),
// and the daemon's live samples (monitor/alert_evaluator). Each fault has one code and one worst
// severity in every face. Pure; memory: one state per GPU and rule, bounded by links and Xid codes.
#pragma once

#include <map>
#include <memory>
#include <vector>

#include "analysis/health/health_rule.hpp"

namespace gpuvet::analysis::health {

class HealthJudge {
 public:
  explicit HealthJudge(HealthLimits limits = {}, double interval_s = 1);
  ~HealthJudge();
  HealthJudge(HealthJudge&&) noexcept;
  HealthJudge& operator=(HealthJudge&&) noexcept;

  [[nodiscard]] const HealthLimits& limits() const { return limits_; }

  // Samples in time order per GPU. Without `answers`: the GPU answers when any of temperature,
  // power, SM clock or utilization is known.
  void on_sample(const core::TelemetrySample& sample);
  void on_sample(const core::TelemetrySample& sample, bool answers, std::string_view silence);
  // A rollup over [from_s, to_s] of run time, in time order per GPU (after its samples' time
  // never: a judge takes rollups or the samples after them). `prior`: the span before the period.
  void on_rollup(const RollupInput& rollup, double from_s, double to_s, bool prior = false);
  void on_event(const core::TelemetryEvent& event);

  // Findings in rule order, then GPU. Live: what fires at view.now_s; a GPU lost now says only
  // gpu_lost and its Xids (its other readings stopped when it did).
  [[nodiscard]] std::vector<HealthFinding> judge(const HealthView& view) const;
  [[nodiscard]] std::vector<core::Finding> findings(const HealthView& view) const;
  [[nodiscard]] std::size_t retained_objects() const;

 private:
  std::vector<std::unique_ptr<RuleState>>& states(int gpu);
  HealthLimits limits_;
  double interval_s_;
  std::map<int, std::vector<std::unique_ptr<RuleState>>> gpus_;
};

// The GPU gives a reading: any of temperature, power, SM clock, utilization known.
bool answers(const core::TelemetrySample& sample);

}  // namespace gpuvet::analysis::health
