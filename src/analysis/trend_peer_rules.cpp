// hotter_than_peers and slower_than_peers: in each bucket of the period, each GPU against the
// median of the other GPUs that ran at the same load in that bucket; a card stands out when it
// does so for hours (thresholds in TrendThresholds, docs/monitor.md "Trend report").
#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "analysis/finding_codes.hpp"
#include "analysis/rule_support.hpp"
#include "analysis/trend_rules.hpp"

namespace gpuvet::analysis::trend {

namespace {

// The longest stretch of consecutive points a GPU stood out in (sampled time). A point covers its
// bucket, or more when it holds more samples (an hourly rollup in a 15-minute bucket).
struct Stretch {
  double current_s = 0, longest_s = 0;
  std::int64_t previous_end = -1;
  void add(std::int64_t start, std::int64_t width_ms, double sampled_s) {
    const bool next = previous_end >= 0 && start <= previous_end + 1000;
    current_s = next ? current_s + sampled_s : sampled_s;
    previous_end = start + std::max(width_ms, static_cast<std::int64_t>(sampled_s * 1000));
    longest_s = std::max(longest_s, current_s);
  }
};

// One GPU's comparison with its peers over the period.
struct PeerTally {
  Stretch hot_run, hot_fail_run, slow_run, slow_fail_run;
  double comparable_s = 0;
  std::vector<double> excess_c, deficit_share;  // per comparable bucket (bounded: one per bucket)
  double hot_s = 0, hot_fail_s = 0, slow_s = 0, slow_fail_s = 0;
  std::vector<double> hot_own, hot_peers, slow_own, slow_peers, util_own, util_peers;
  std::vector<double> hot_fail_own, hot_fail_peers, slow_fail_own, slow_fail_peers;  // the buckets past the fail line
  std::int64_t hot_first = 0, slow_first = 0, hot_fail_first = 0, slow_fail_first = 0;
  // Busy buckets of its peers it did not run at their load in: its utilization, theirs.
  double off_load_s = 0;
  std::vector<double> off_load_own, off_load_peers;
};

// The peers of one GPU in one bucket, and whether it ran at their load.
struct Peers {
  bool same_load = false;
  std::optional<double> util_own, util_median, temp_median, clock_median;
};

// A GPU with a reading in a bucket; a lost or missing GPU's samples there hold none.
bool has_reading(const TrendPoint& p) { return p.util_pct || p.temp_c || p.sm_clock_mhz || p.power_w; }

// The peers of `own` are the other GPUs with readings in the bucket (a GPU lost or missing there
// is nobody's peer, and does not keep the others from being compared).
Peers peers_of(const TrendPoint& own, const std::vector<const TrendPoint*>& candidates, const TrendThresholds& th) {
  Peers p;
  std::vector<const TrendPoint*> others;
  for (const auto* o : candidates) {
    if (has_reading(*o)) others.push_back(o);
  }
  if (others.empty()) return p;
  std::vector<double> utils, temps, clocks;
  bool all_loaded = own.samples > 0 && static_cast<double>(own.loaded) >= th.loaded_share * static_cast<double>(own.samples);
  for (const auto* o : others) {
    if (o->util_pct) utils.push_back(*o->util_pct);
    if (o->temp_c) temps.push_back(*o->temp_c);
    if (o->sm_clock_mhz) clocks.push_back(*o->sm_clock_mhz);
    if (static_cast<double>(o->loaded) < th.loaded_share * static_cast<double>(o->samples)) all_loaded = false;
  }
  p.temp_median = median_of(temps);
  p.clock_median = median_of(clocks);
  if (own.util_pct && utils.size() == others.size()) {
    p.util_own = own.util_pct;
    p.util_median = median_of(utils);
    p.same_load = *p.util_median >= th.busy_util_pct && std::abs(*own.util_pct - *p.util_median) <= th.same_load_points;
  } else {
    p.same_load = all_loaded;  // burn-in history: every GPU under the GEMM load
  }
  return p;
}

void tally(PeerTally& t, const TrendPoint& own, const Peers& peers, double sampled_s, std::int64_t width_ms, const TrendThresholds& th) {
  t.comparable_s += sampled_s;
  if (peers.util_own) {
    t.util_own.push_back(*peers.util_own);
    t.util_peers.push_back(*peers.util_median);
  }
  if (own.temp_c && peers.temp_median) {
    const double excess = *own.temp_c - *peers.temp_median;
    t.excess_c.push_back(excess);
    if (excess >= th.hotter_warn_c) {
      if (t.hot_s == 0) t.hot_first = own.start_unix_ms;
      t.hot_s += sampled_s;
      t.hot_own.push_back(*own.temp_c);
      t.hot_peers.push_back(*peers.temp_median);
      t.hot_run.add(own.start_unix_ms, width_ms, sampled_s);
    }
    if (excess >= th.hotter_fail_c) {
      if (t.hot_fail_s == 0) t.hot_fail_first = own.start_unix_ms;
      t.hot_fail_s += sampled_s;
      t.hot_fail_own.push_back(*own.temp_c);
      t.hot_fail_peers.push_back(*peers.temp_median);
      t.hot_fail_run.add(own.start_unix_ms, width_ms, sampled_s);
    }
  }
  if (own.sm_clock_mhz && peers.clock_median && *peers.clock_median > 0) {
    const double deficit = 1 - *own.sm_clock_mhz / *peers.clock_median;
    t.deficit_share.push_back(deficit);
    if (deficit >= th.slower_warn_share) {
      if (t.slow_s == 0) t.slow_first = own.start_unix_ms;
      t.slow_s += sampled_s;
      t.slow_own.push_back(*own.sm_clock_mhz);
      t.slow_peers.push_back(*peers.clock_median);
      t.slow_run.add(own.start_unix_ms, width_ms, sampled_s);
    }
    if (deficit >= th.slower_fail_share) {
      if (t.slow_fail_s == 0) t.slow_fail_first = own.start_unix_ms;
      t.slow_fail_s += sampled_s;
      t.slow_fail_own.push_back(*own.sm_clock_mhz);
      t.slow_fail_peers.push_back(*peers.clock_median);
      t.slow_fail_run.add(own.start_unix_ms, width_ms, sampled_s);
    }
  }
}

// The end of the last point a GPU stood out in (its bucket, or the hour of a rollup), within the period.
std::int64_t stretch_end(const TrendHistory& h, const Stretch& run) { return std::min(h.to_unix_ms, run.previous_end); }

// For hours: half of the comparable time, or the minimum in a row (an 18 h episode in a week).
bool stands_out(double out_s, const Stretch& run, double comparable_s, const TrendThresholds& th) {
  return (out_s >= th.min_out_s && out_s >= th.min_out_share * comparable_s) || run.longest_s >= th.min_out_s;
}

// The median gap of the buckets a GPU stood out in (own - peers, or 1 - own / peers for clocks).
double median_gap(const std::vector<double>& own, const std::vector<double>& peers, bool ratio) {
  std::vector<double> gaps;
  for (std::size_t i = 0; i < own.size() && i < peers.size(); ++i) {
    gaps.push_back(ratio ? (peers[i] > 0 ? 1 - own[i] / peers[i] : 0) : own[i] - peers[i]);
  }
  return median_of(gaps).value_or(0);
}

// A GPU fails when it stood out by the fail line for the time it takes, or stood out for that time
// by a median past the fail line: a card that jumps 22 °C above its peers fails when it first
// stands out, not a bucket later because the bucket it jumped in was half cool.

std::string load_text(const PeerTally& t) {
  if (t.util_own.empty()) return "every GPU under the burn-in's full GEMM load";
  return fmt::format("utilization {:.0f} % (peers {:.0f} %), medians of the comparable buckets", *median_of(t.util_own),
                     *median_of(t.util_peers));
}

std::string rule_text(double warn, double fail, const char* unit, const TrendThresholds& th) {
  return fmt::format("{:g}{} (warn), {:g}{} (fail), for at least {} in a row, or that long in all and half of the time at the "
                     "same load", warn, unit, fail, unit, hours(th.min_out_s));
}

}  // namespace

void peer_rules(const TrendHistory& h, const TrendThresholds& th, TrendAssessment& out) {
  std::map<std::int64_t, std::vector<std::pair<int, const TrendPoint*>>> by_bucket;
  for (const auto& g : h.gpus) {
    for (const auto& p : g.points) by_bucket[p.start_unix_ms].emplace_back(g.gpu, &p);
  }
  std::map<int, PeerTally> tallies;
  for (const auto& g : h.gpus) tallies[g.gpu];
  for (const auto& [start, cells] : by_bucket) {
    for (const auto& [gpu, own] : cells) {
      std::vector<const TrendPoint*> others;
      for (const auto& [other, p] : cells) {
        if (other != gpu) others.push_back(p);
      }
      const Peers peers = peers_of(*own, others, th);
      const double sampled_s = static_cast<double>(own->samples) * h.interval_s;
      if (peers.same_load) {
        tally(tallies[gpu], *own, peers, sampled_s, static_cast<std::int64_t>(h.bucket_s * 1000), th);
      } else if (peers.util_own && *peers.util_median >= th.busy_util_pct) {
        auto& t = tallies[gpu];
        t.off_load_s += sampled_s;
        t.off_load_own.push_back(*peers.util_own);
        t.off_load_peers.push_back(*peers.util_median);
      }
    }
  }
  double most_comparable_s = 0;
  for (auto& standing : out.gpus) {
    const PeerTally& t = tallies[standing.gpu];
    standing.comparable_s = t.comparable_s;
    standing.temp_above_peers_c = median_of(t.excess_c);
    standing.clock_below_peers_share = median_of(t.deficit_share);
    most_comparable_s = std::max(most_comparable_s, t.comparable_s);
    const int gpu = standing.gpu;
    if (stands_out(t.hot_s, t.hot_run, t.comparable_s, th)) {
      // A fail cites the buckets past the fail line when they alone stood out long enough; else all it stood out in.
      const bool own_fail = stands_out(t.hot_fail_s, t.hot_fail_run, t.comparable_s, th) && !t.hot_fail_own.empty();
      const bool fail = own_fail || median_gap(t.hot_own, t.hot_peers, false) >= th.hotter_fail_c;
      const double own = *median_of(own_fail ? t.hot_fail_own : t.hot_own);
      const double peers = *median_of(own_fail ? t.hot_fail_peers : t.hot_peers);
      const double out_s = own_fail ? t.hot_fail_s : t.hot_s;
      const Stretch& run = own_fail ? t.hot_fail_run : t.hot_run;
      const char* which = own_fail ? "buckets it stood out in by the fail line or more" : "buckets it stood out in";
      auto f = make_finding(code::hotter_than_peers, fail ? core::Severity::fail : core::Severity::warn, {gpu},
                            fmt::format("GPU {} ran {:.1f} °C hotter than its peers at the same load for {} of {} ({:.0f} °C against {:.0f} °C)",
                                        gpu, own - peers, hours(out_s), hours(t.comparable_s), own, peers));
      f.evidence = {{"temperature", fmt::format("{:.1f} °C (median of the {})", own, which)},
                    {"peers", fmt::format("{:.1f} °C (median of the other GPUs at the same load)", peers)},
                    {"load", load_text(t)},
                    {"for", fmt::format("{} of {} at the same load, {} in a row at most", hours(out_s), hours(t.comparable_s),
                                        hours(run.longest_s))},
                    {"when", fmt::format("{} to {}", utc_minute(own_fail ? t.hot_fail_first : t.hot_first), utc_minute(stretch_end(h, run)))},
                    {"rule", "above the peers' median by " + rule_text(th.hotter_warn_c, th.hotter_fail_c, " °C", th)}};
      out.findings.push_back(std::move(f));
    }
    if (stands_out(t.slow_s, t.slow_run, t.comparable_s, th)) {
      // A fail cites the buckets past the fail line when they alone stood out long enough; else all it stood out in.
      const bool own_fail = stands_out(t.slow_fail_s, t.slow_fail_run, t.comparable_s, th) && !t.slow_fail_own.empty();
      const bool fail = own_fail || median_gap(t.slow_own, t.slow_peers, true) >= th.slower_fail_share;
      const double own = *median_of(own_fail ? t.slow_fail_own : t.slow_own);
      const double peers = *median_of(own_fail ? t.slow_fail_peers : t.slow_peers);
      const double out_s = own_fail ? t.slow_fail_s : t.slow_s;
      const Stretch& run = own_fail ? t.slow_fail_run : t.slow_run;
      const char* which = own_fail ? "buckets it stood out in by the fail line or more" : "buckets it stood out in";
      auto f = make_finding(code::slower_than_peers, fail ? core::Severity::fail : core::Severity::warn, {gpu},
                            fmt::format("GPU {} ran {:.1f} % below its peers' SM clock at the same load for {} of {} ({:.0f} MHz against {:.0f} MHz)",
                                        gpu, (1 - own / peers) * 100, hours(out_s), hours(t.comparable_s), own, peers));
      f.evidence = {{"sm_clock", fmt::format("{:.0f} MHz (median of the {})", own, which)},
                    {"peers", fmt::format("{:.0f} MHz (median of the other GPUs at the same load)", peers)},
                    {"load", load_text(t)},
                    {"for", fmt::format("{} of {} at the same load, {} in a row at most", hours(out_s), hours(t.comparable_s),
                                        hours(run.longest_s))},
                    {"when", fmt::format("{} to {}", utc_minute(own_fail ? t.slow_fail_first : t.slow_first), utc_minute(stretch_end(h, run)))},
                    {"rule", "below the peers' median by " +
                                 rule_text(th.slower_warn_share * 100, th.slower_fail_share * 100, " %", th)}};
      out.findings.push_back(std::move(f));
    }
  }
  // A GPU left out of the comparison while its peers were compared is not a GPU that passed it.
  if (h.gpus.size() >= 2 && most_comparable_s >= th.min_out_s) {
    for (const auto& standing : out.gpus) {
      const PeerTally& t = tallies[standing.gpu];
      if (t.comparable_s >= th.min_out_s) continue;
      std::string why = "its peers' load is not known for it";
      if (!t.off_load_own.empty()) {
        why = fmt::format("for {} its utilization was {:.0f} % while its peers ran at {:.0f} % (medians); a card that lags "
                          "its busy peers is utilization_below_peers (above when it lagged for long enough)",
                          hours(t.off_load_s), *median_of(t.off_load_own), *median_of(t.off_load_peers));
      }
      out.unverified.push_back(fmt::format("hotter/slower than peers: GPU {} ran at its peers' load for {}, less than the {} a "
                                           "card must stand out for, so it was not compared: {}",
                                           standing.gpu, hours(t.comparable_s), hours(th.min_out_s), why));
    }
  }
  if (h.gpus.size() < 2) {
    out.unverified.push_back("hotter/slower than peers: fewer than two GPUs in the history, so no peers to compare with");
  } else if (most_comparable_s > 0 && most_comparable_s < th.min_out_s) {
    out.unverified.push_back(fmt::format("hotter/slower than peers: the GPUs ran at the same load for {} at most, less than the {} a "
                                         "card must stand out for: too short to judge",
                                         hours(most_comparable_s), hours(th.min_out_s)));
  } else if (most_comparable_s == 0) {
    out.unverified.push_back(fmt::format(
        "hotter/slower than peers: no time in the period when the GPUs ran at the same load (peers' median utilization at "
        "least {:g} %, each GPU within {:g} points of it), so no card could be compared with its peers",
        th.busy_util_pct, th.same_load_points));
  }
}

}  // namespace gpuvet::analysis::trend
