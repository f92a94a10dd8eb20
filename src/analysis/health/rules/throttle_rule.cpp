// throttle_reasons at run time: clocks held back by a thermal or hardware slowdown or the power
// brake for at least HealthLimits::throttle_min_s without a break (the power cap itself is the
// normal state of a GPU at full load). A software thermal slowdown warns; hardware slowdown, its
// thermal case and the power brake fail. Rollups keep the throttled time, not which reason, so
// their hours warn.
#include <array>

#include <fmt/format.h>

#include "analysis/finding_codes.hpp"
#include "analysis/health/health_rules.hpp"
#include "analysis/health/rule_support.hpp"

namespace gpuvet::analysis::health {
namespace {

constexpr std::array<std::pair<std::uint64_t, core::Severity>, 4> kReasons = {{
    {core::clocks_event::sw_thermal_slowdown, core::Severity::warn},
    {core::clocks_event::hw_slowdown, core::Severity::fail},
    {core::clocks_event::hw_thermal_slowdown, core::Severity::fail},
    {core::clocks_event::hw_power_brake, core::Severity::fail},
}};
constexpr std::uint64_t kAnyReason = 0;  // a rollup's throttled time: which reason is not kept

struct ThrottleRule {
  static constexpr std::string_view code = code::throttle_reasons;
  struct State {
    explicit State(const HealthLimits& limits) {
      for (auto& h : held) h.set_min_run(limits.throttle_min_s);
      rollup.set_min_run(limits.throttle_min_s);
    }
    std::array<HeldCondition, kReasons.size()> held;
    HeldCondition rollup;
    double judged_s = 0;  // time whose throttle reasons are known (samples and rollups)
  };

  static void on_sample(State& s, const SampleInput& in, const HealthLimits&) {
    if (!in.sample.clocks_event_reasons.known()) return;
    s.judged_s += in.interval_s;
    for (std::size_t i = 0; i < kReasons.size(); ++i) {
      s.held[i].observe(in.sample.t_s, (*in.sample.clocks_event_reasons & kReasons[i].first) != 0, in.interval_s);
    }
  }

  static void on_rollup(State& s, const RollupSpan& in, const HealthLimits&) {
    if (in.prior) return;
    s.judged_s += static_cast<double>(in.values.samples) * in.interval_s;
    s.rollup.add_held(in.from_s, in.to_s, static_cast<double>(in.values.throttled) * in.interval_s);
  }

  static void judge(const State& s, int gpu, const HealthView& view, std::vector<HealthFinding>& out) {
    const double min_s = view.limits.throttle_min_s;
    core::Severity worst = core::Severity::info;
    double since = -1;
    std::string parts;
    Evidence evidence;
    const auto add = [&](std::uint64_t bit, core::Severity severity, const HeldCondition& h) {
      if (!held_long(h, min_s, view)) return;
      worst = std::max(worst, severity);
      const double from = held_since(h, view);
      since = since < 0 ? from : std::min(since, from);
      const std::string name = bit == kAnyReason ? "a thermal or hardware slowdown or the power brake" : core::clocks_event_name(bit);
      const std::string key = bit == kAnyReason ? "throttled" : core::clocks_event_name(bit);
      if (view.live) {
        parts += fmt::format("{}{} since {} ({} s)", parts.empty() ? "" : "; ", name, view.words.at(from), number(h.current().length_s(), 0));
        evidence.emplace_back(key + "_held_s", number(h.current().length_s(), 0));
      } else {
        parts += fmt::format("{}{} {} in all ({} % of the {} judged), the longest {} from {}", parts.empty() ? "" : "; ", name,
                             view.words.duration(h.total_s()), number(s.judged_s > 0 ? 100 * h.total_s() / s.judged_s : 0, 1),
                             view.words.duration(s.judged_s), view.words.duration(h.longest().length_s()),
                             view.words.at(h.longest().from_s));
        evidence.emplace_back(key + "_s", number(h.total_s(), 0));
        evidence.emplace_back(key + "_first", view.words.at(h.first_s()));
      }
    };
    for (std::size_t i = 0; i < kReasons.size(); ++i) add(kReasons[i].first, kReasons[i].second, s.held[i]);
    add(kAnyReason, core::Severity::warn, s.rollup);
    if (parts.empty()) return;
    out.push_back(health_finding(code, worst, gpu, fmt::format("GPU {}: clocks held back by {}", gpu, parts), std::move(evidence), since, view));
  }
};

}  // namespace

const HealthRule& throttle_rule() {
  static const RuleOf<ThrottleRule> rule;
  return rule;
}

}  // namespace gpuvet::analysis::health
