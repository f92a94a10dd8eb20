// nvlink_errors_growing: NVLink CRC (flit, data), replay and recovery counters that grow. Any growth
// warns; DCGM's limits fail: CRC errors at 100 per second, more than one replay or recovery in an
// episode. Samples name the link; rollups sum the links, so they name the GPU only.
#include <array>
#include <map>

#include <fmt/format.h>

#include "analysis/finding_codes.hpp"
#include "analysis/health/health_rules.hpp"
#include "analysis/health/rule_support.hpp"

namespace gpuvet::analysis::health {
namespace {

using LinkMember = core::Reading<std::uint64_t> core::NvLinkErrorSample::*;
constexpr std::array<std::pair<const char*, LinkMember>, 4> kCounters = {{{"crc_flit", &core::NvLinkErrorSample::crc_flit},
                                                                           {"crc_data", &core::NvLinkErrorSample::crc_data},
                                                                           {"replay", &core::NvLinkErrorSample::replay},
                                                                           {"recovery", &core::NvLinkErrorSample::recovery}}};
constexpr int kAllLinks = -1;  // a rollup's sum over the links
constexpr std::size_t kCrc = 0, kReplay = 2, kRecovery = 3;

struct NvlinkGrowthRule {
  static constexpr std::string_view code = code::nvlink_errors_growing;
  struct State {
    std::map<std::pair<int, std::size_t>, CounterGrowth> counters;  // (link, counter)
    [[nodiscard]] std::size_t retained() const { return counters.size() + 1; }
  };

  static void on_sample(State& s, const SampleInput& in, const HealthLimits& limits) {
    if (!in.sample.nvlink.known()) return;
    for (const auto& link : *in.sample.nvlink) {
      for (std::size_t c = 0; c < kCounters.size(); ++c) {
        const auto& r = link.*(kCounters[c].second);
        if (r.known()) s.counters[{link.link, c}].observe(in.sample.t_s, *r, limits);
      }
    }
  }

  static void on_rollup(State& s, const RollupSpan& in, const HealthLimits& limits) {
    const std::pair<std::size_t, const std::optional<std::uint64_t>*> grown[] = {
        {kCrc, &in.values.nvlink_crc}, {kReplay, &in.values.nvlink_replay}, {kRecovery, &in.values.nvlink_recovery}};
    for (const auto& [c, value] : grown) {
      if (!*value) continue;
      auto& counter = s.counters[{kAllLinks, c}];
      if (in.prior) {
        counter.add_prior_growth(in.from_s, in.to_s, **value);
      } else {
        counter.add_growth(in.from_s, in.to_s, **value, limits);
      }
    }
  }

  static void judge(const State& s, int gpu, const HealthView& view, std::vector<HealthFinding>& out) {
    std::string parts, tails;
    Evidence evidence;
    bool fail = false;
    double since = -1;
    for (const auto& [key, c] : s.counters) {
      if (!counts(c, view)) continue;
      const auto [link, index] = key;
      const std::string counter = link == kAllLinks && index == kCrc ? "crc" : kCounters[index].first;
      const std::string where = link == kAllLinks ? counter : fmt::format("link {} {}", link, counter);
      if (!view.live && c.only_prior_tail()) {
        tails += fmt::format("{}{} +{} (+{} in the hour before)", tails.empty() ? "" : ", ", where, c.total(), c.prior_growth());
        continue;
      }
      const bool crc = index < kReplay;
      if (crc ? worst_rate_per_s(c, view) >= view.limits.nvlink_crc_per_s
              : (view.live ? c.latest().growth : c.largest_episode()) > 1) {
        fail = true;
      }
      const double from = since_of(c, view);
      since = since < 0 ? from : std::min(since, from);
      parts += fmt::format("{}{} {}", parts.empty() ? "" : "; ", where, growth_words(c, view));
      const std::string prefix = link == kAllLinks ? "rollup_" + counter : fmt::format("link{}_{}", link, counter);
      evidence.emplace_back(prefix + "_new", std::to_string(growth_of(c, view)));
      evidence.emplace_back(prefix + "_per_min", number(mean_rate_per_s(c, view) * 60, 2));
      evidence.emplace_back(prefix + "_peak_per_min", number(worst_rate_per_s(c, view) * 60, 2));
    }
    if (!parts.empty()) {
      evidence.emplace_back("first_increase", view.words.at(since));
      std::string message = view.live ? fmt::format("GPU {}: NVLink error counters growing since {}: {}", gpu, view.words.at(since), parts)
                                      : fmt::format("GPU {}: NVLink error counters grew {}: {}", gpu, view.words.during, parts);
      if (!tails.empty()) message += "; at the period's start, the tail of growth before it: " + tails;
      out.push_back(health_finding(code, fail ? core::Severity::fail : core::Severity::warn, gpu, std::move(message),
                                   std::move(evidence), since, view));
    } else if (!tails.empty()) {
      out.push_back(health_finding(code, core::Severity::info, gpu,
                                   fmt::format("GPU {}: NVLink error counters grew at the period's start only by the tail of "
                                               "an episode before the period (less than a minute at its rate): {}",
                                               gpu, tails),
                                   {}, view.now_s, view));
    }
  }
};

}  // namespace

const HealthRule& nvlink_growth_rule() {
  static const RuleOf<NvlinkGrowthRule> rule;
  return rule;
}

}  // namespace gpuvet::analysis::health
