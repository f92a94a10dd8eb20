// Health findings from hourly rollups: the burn-in judge's codes and limits (DCGM's CRC and PCIe
// replay rates), read from counter growth per hour instead of consecutive samples.
#include "analysis/trend_rollup_health.hpp"

#include <algorithm>
#include <string>

#include <fmt/format.h>

#include "analysis/finding_codes.hpp"
#include "analysis/rule_support.hpp"

namespace gpuvet::analysis {

namespace {

std::string when(const RollupHealth::Tally& t) {
  return fmt::format("{} to {}", utc_minute(t.first_ms), utc_minute(t.last_end_ms));
}

std::string hours_text(std::size_t n) { return n == 1 ? "1 hour" : fmt::format("{} hours", n); }

// "2.5/min", or per hour when under 0.1/min (one error in an hour is "1.0/h", not "0.0/min").
std::string per(double per_minute) {
  return per_minute >= 0.1 ? fmt::format("{:.1f}/min", per_minute) : fmt::format("{:.1f}/h", per_minute * 60);
}

std::string rate(const RollupHealth::Tally& t) {
  return fmt::format("{} over those hours, {} in the worst", per(t.per_minute()), per(t.worst_per_minute));
}

void add_count(RollupHealth::Tally& t, std::int64_t start, std::int64_t end, const std::optional<std::uint64_t>& grown) {
  if (grown && *grown > 0) t.add(start, end, *grown);
}

}  // namespace

void RollupHealth::Tally::add(std::int64_t start_ms, std::int64_t end_ms, std::uint64_t grown) {
  if (hours == 0 || start_ms < first_ms) first_ms = start_ms;
  last_end_ms = std::max(last_end_ms, end_ms);
  growth += grown;
  ++hours;
  const double minutes = static_cast<double>(end_ms - start_ms) / 60000.0;
  worst_per_minute = std::max(worst_per_minute, static_cast<double>(grown) / std::max(minutes, 1.0));
}

double RollupHealth::Tally::per_minute() const {
  const double span_min = static_cast<double>(last_end_ms - first_ms) / 60000.0;
  return span_min > 0 ? static_cast<double>(growth) / span_min : 0;
}

RollupHealth::RollupHealth(double interval_s, BurninThresholds thresholds)
    : interval_s_(interval_s > 0 ? interval_s : 1.0), thresholds_(thresholds) {}

void RollupHealth::add(const RollupInput& r) {
  if (r.samples == 0) return;
  // The rollup's samples end its span (an hour the run began or ended in holds fewer).
  const double covered_s = std::min(r.span_s, static_cast<double>(r.samples) * interval_s_);
  const auto end = r.unix_ms + static_cast<std::int64_t>(covered_s * 1000);
  from_ms_ = std::min(from_ms_.value_or(r.unix_ms), r.unix_ms);
  to_ms_ = std::max(to_ms_.value_or(end), end);
  Gpu& g = gpus_[r.gpu];
  g.sampled_s += static_cast<double>(r.samples) * interval_s_;
  add_count(g.crc, r.unix_ms, end, r.nvlink_crc);
  add_count(g.replay, r.unix_ms, end, r.nvlink_replay);
  add_count(g.recovery, r.unix_ms, end, r.nvlink_recovery);
  add_count(g.ecc_corrected, r.unix_ms, end, r.ecc_corrected);
  add_count(g.ecc_uncorrected, r.unix_ms, end, r.ecc_uncorrected);
  add_count(g.pcie, r.unix_ms, end, r.pcie_replays);
  if (r.throttled > 0) g.throttled.add(r.unix_ms, end, r.throttled);
}

void RollupHealth::add_before(const RollupInput& r) {
  Before& b = before_[r.gpu];
  b.end_ms = r.unix_ms + static_cast<std::int64_t>(r.span_s * 1000);
  const std::optional<std::uint64_t>* counters[] = {&r.nvlink_crc, &r.nvlink_replay, &r.nvlink_recovery};
  for (int c = 0; c < 3; ++c) b.grown[c] = counters[c]->value_or(0);
}

std::optional<std::pair<std::int64_t, std::int64_t>> RollupHealth::span() const {
  if (!from_ms_) return std::nullopt;
  return std::make_pair(*from_ms_, *to_ms_);
}

std::vector<core::Finding> RollupHealth::findings() const {
  std::vector<core::Finding> out;
  for (const auto& [gpu, g] : gpus_) {
    // NVLink: the rollups sum the links, so the GPU is named, not the link.
    std::string parts;
    std::vector<std::pair<std::string, std::string>> evidence;
    bool fail = false;
    const std::pair<const char*, const Tally*> counters[] = {{"crc", &g.crc}, {"replay", &g.replay}, {"recovery", &g.recovery}};
    std::int64_t first = 0, last = 0;
    const auto before = before_.find(gpu);
    std::string tails;
    for (std::size_t c = 0; c < 3; ++c) {
      const auto& [name, t] = counters[c];
      if (t->growth == 0) continue;
      // Grown only in the period's first hour, by less than a minute of the hour before's rate.
      if (before != before_.end() && t->hours == 1 && t->first_ms <= before->second.end_ms + 1000 &&
          static_cast<double>(t->growth) < static_cast<double>(before->second.grown[c]) / 60.0) {
        tails += fmt::format("{}{} +{} (+{} in the hour before)", tails.empty() ? "" : ", ", name, t->growth, before->second.grown[c]);
        continue;
      }
      const bool crc = std::string(name) == "crc";
      if (crc ? t->worst_per_minute / 60 >= thresholds_.nvlink_crc_per_s : t->growth > 1) fail = true;
      first = first == 0 ? t->first_ms : std::min(first, t->first_ms);
      last = std::max(last, t->last_end_ms);
      parts += fmt::format("{}{} +{} in {} ({})", parts.empty() ? "" : "; ", name, t->growth, hours_text(t->hours), rate(*t));
      evidence.emplace_back(fmt::format("rollup_{}_new", name), std::to_string(t->growth));
      evidence.emplace_back(fmt::format("rollup_{}_per_min", name), fmt::format("{:.2f}", t->per_minute()));
      evidence.emplace_back(fmt::format("rollup_{}_worst_hour_per_min", name), fmt::format("{:.2f}", t->worst_per_minute));
    }
    if (!parts.empty()) {
      evidence.emplace_back("rollup_hours", fmt::format("{} to {}", utc_minute(first), utc_minute(last)));
      auto f = make_finding(code::nvlink_errors_growing, fail ? core::Severity::fail : core::Severity::warn, {gpu},
                            fmt::format("GPU {}: NVLink error counters grew from {} to {} (hourly rollups, all links summed): {}", gpu,
                                        utc_minute(first), utc_minute(last), parts));
      f.evidence = std::move(evidence);
      if (!tails.empty()) f.message += "; at the period's start, the tail of growth before it: " + tails;
      out.push_back(std::move(f));
    } else if (!tails.empty()) {
      auto f = make_finding(code::nvlink_errors_growing, core::Severity::info, {gpu},
                            fmt::format("GPU {}: NVLink error counters grew in the period's first hour only by the tail of an "
                                        "episode before the period (less than a minute of its rate; hourly rollups, all links "
                                        "summed): {}", gpu, tails));
      f.evidence = {{"rollup_hours", fmt::format("{} to {}", utc_minute(before->second.end_ms), utc_minute(before->second.end_ms + 3600000))}};
      out.push_back(std::move(f));
    }
    if (g.ecc_uncorrected.growth > 0 || g.ecc_corrected.growth > 0) {
      const bool unc = g.ecc_uncorrected.growth > 0;
      const Tally& t = unc ? g.ecc_uncorrected : g.ecc_corrected;
      auto f = make_finding(code::ecc_errors_new, unc ? core::Severity::fail : core::Severity::warn, {gpu},
                            fmt::format("GPU {} reported {} new {} ECC error(s) in {} from {} (hourly rollups)", gpu, t.growth,
                                        unc ? "uncorrected" : "corrected", hours_text(t.hours), when(t)));
      if (g.ecc_corrected.growth > 0) f.evidence.emplace_back("corrected_new", std::to_string(g.ecc_corrected.growth));
      if (unc) f.evidence.emplace_back("uncorrected_new", std::to_string(g.ecc_uncorrected.growth));
      f.evidence.emplace_back("rollup_hours", when(t));
      out.push_back(std::move(f));
    }
    if (g.pcie.growth > 0) {
      const double per_min = g.pcie.worst_per_minute;
      const bool over = per_min > thresholds_.pcie_replays_per_min;
      auto f = make_finding(code::pcie_replays, over ? core::Severity::warn : core::Severity::info, {gpu},
                            fmt::format("GPU {}: {} PCIe replays in {} from {}, {}{} (hourly rollups)", gpu, g.pcie.growth,
                                        hours_text(g.pcie.hours), when(g.pcie), rate(g.pcie),
                                        over ? fmt::format(", above DCGM's {:.0f} per minute", thresholds_.pcie_replays_per_min) : ""));
      f.evidence = {{"replays_new", std::to_string(g.pcie.growth)}, {"per_minute", fmt::format("{:.2f}", g.pcie.per_minute())},
                    {"worst_hour_per_minute", fmt::format("{:.2f}", per_min)},
                    {"rollup_hours", when(g.pcie)}};
      out.push_back(std::move(f));
    }
    // The daemon's limit: a throttle reason must hold 30 s before it counts.
    const double throttled_s = static_cast<double>(g.throttled.growth) * interval_s_;
    if (throttled_s >= 30) {
      auto f = make_finding(code::throttle_reasons, core::Severity::warn, {gpu},
                            fmt::format("GPU {} was held back by a thermal or hardware slowdown or the power brake for {:.1f} h "
                                        "({:.1f} % of its {:.1f} h judged from hourly rollups) in {} from {}; the rollups keep the "
                                        "throttled time, not which reason",
                                        gpu, throttled_s / 3600, 100 * throttled_s / g.sampled_s, g.sampled_s / 3600,
                                        hours_text(g.throttled.hours), when(g.throttled)));
      f.evidence = {{"throttled_s", fmt::format("{:.0f}", throttled_s)},
                    {"judged_s", fmt::format("{:.0f}", g.sampled_s)},
                    {"rollup_hours", when(g.throttled)}};
      out.push_back(std::move(f));
    }
  }
  return out;
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
