// The health of the hours a history keeps only as rollups (raw samples pruned by the retention):
// the one health judge (analysis/health) fed the rollups instead of samples, for `gpuvet trend` and
// `gpuvet report --db`. Rollups keep counter growth per hour (NVLink summed over links) and the
// throttled time, not which reason, nor PCIe link width, remaps or retired pages: those are judged
// from raw samples only. Pure; memory: the period's rollups (one small record per GPU-hour).
#pragma once

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "analysis/health/health_limits.hpp"
#include "analysis/trend_history.hpp"
#include "core/finding.hpp"

namespace gpuvet::analysis {

class RollupHealth {
 public:
  // `interval_s`: the sampling interval (a rollup's samples x interval = the time it covers).
  explicit RollupHealth(double interval_s, health::HealthLimits limits = {});
  // One GPU-hour (or the part of an hour no raw sample covers), any order.
  void add(const RollupInput& rollup);
  // The GPU-hour just before the period, not judged: growth in the period's first hour of less
  // than a minute at this hour's rate is the tail of that earlier episode, an info.
  void add_before(const RollupInput& rollup);
  // The health judge's findings over the rollups, as a period (dates in UTC).
  [[nodiscard]] std::vector<core::Finding> findings() const;
  // The wall-clock span the rollups fed here cover (first start, last end); absent when none.
  [[nodiscard]] std::optional<std::pair<std::int64_t, std::int64_t>> span() const;

 private:
  struct Span {
    RollupInput input;
    double from_s = 0, to_s = 0;
    bool prior = false;
  };
  [[nodiscard]] Span span_of(const RollupInput& r, bool prior) const;
  double interval_s_;
  health::HealthLimits limits_;
  std::vector<Span> spans_;
  std::optional<std::int64_t> from_ms_, to_ms_;
};

// The raw samples' findings with the rollups' added: one finding per code and GPU set (the raw
// one, its message and evidence extended with the rollup hours, at the higher severity).
std::vector<core::Finding> merge_period_findings(std::vector<core::Finding> raw, const std::vector<core::Finding>& rollups);

}  // namespace gpuvet::analysis
