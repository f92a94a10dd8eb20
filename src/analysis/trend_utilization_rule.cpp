// utilization_below_peers over a trend period: in each time bucket, each GPU's mean utilization
// against its group's mean (analysis/utilization_peers.hpp, the daemon's definition and numbers);
// a GPU that stayed below for at least the daemon's window in the period is named, with when.
#include <map>

#include <fmt/format.h>

#include "analysis/finding_codes.hpp"
#include "analysis/rule_support.hpp"
#include "analysis/trend_rules.hpp"

namespace gpuvet::analysis::trend {

namespace {

struct LagTally {
  double below_s = 0;
  std::vector<double> own, group;  // per bucket it lagged (bounded: one per bucket)
  std::int64_t first = 0, last = 0;
};

}  // namespace

void utilization_rule(const TrendHistory& h, const TrendThresholds& th, TrendAssessment& out) {
  std::map<std::int64_t, std::vector<std::pair<int, const TrendPoint*>>> by_bucket;
  for (const auto& g : h.gpus) {
    for (const auto& p : g.points) {
      if (p.util_pct) by_bucket[p.start_unix_ms].emplace_back(g.gpu, &p);
    }
  }
  std::map<int, LagTally> tallies;
  for (const auto& [start, cells] : by_bucket) {
    if (cells.size() < 2) continue;
    double sum = 0;
    for (const auto& [gpu, p] : cells) sum += *p->util_pct;
    const double group = sum / static_cast<double>(cells.size());
    if (!utilization_group_busy(group, th.util_busy_pct)) continue;
    for (const auto& [gpu, p] : cells) {
      if (!utilization_below_peers(*p->util_pct, group, th.util_below_share)) continue;
      LagTally& t = tallies[gpu];
      if (t.below_s == 0) t.first = start;
      t.last = start;
      t.below_s += static_cast<double>(p->samples) * h.interval_s;
      t.own.push_back(*p->util_pct);
      t.group.push_back(group);
    }
  }
  for (const auto& [gpu, t] : tallies) {
    if (t.below_s < th.util_min_below_s) continue;
    const double own = *median_of(t.own);
    const double group = *median_of(t.group);
    const double below = 1 - own / group;
    const auto end = std::min(h.to_unix_ms, t.last + static_cast<std::int64_t>(h.bucket_s * 1000));
    auto f = make_finding(code::utilization_below_peers, core::Severity::warn, {gpu},
                          fmt::format("GPU {}: utilization {:.0f} % against its group's mean of {:.0f} % ({:.0f} % below) for {} "
                                      "from {} to {}: it waits on its peers (a slower path, its NUMA node or a mixed batch)",
                                      gpu, own, group, 100 * below, hours(t.below_s), utc_minute(t.first), utc_minute(end)));
    f.evidence = {{"util_pct", fmt::format("{:.1f} (median of the buckets it lagged)", own)},
                  {"group_mean_util_pct", fmt::format("{:.1f} (mean of every GPU's mean, its own included)", group)},
                  {"below_group_mean_share", fmt::format("{:.3f}", below)},
                  {"for", hours(t.below_s)},
                  {"when", fmt::format("{} to {}", utc_minute(t.first), utc_minute(end))},
                  {"rule", fmt::format("below {:g} % of the group's mean while the group's mean is at least {:g} %, for at least {} "
                                       "of the period (the daemon's window), judged on {} means",
                                       100 * (1 - th.util_below_share), th.util_busy_pct, hours(th.util_min_below_s),
                                       hours(h.bucket_s))}};
    out.findings.push_back(std::move(f));
  }
}

}  // namespace gpuvet::analysis::trend
