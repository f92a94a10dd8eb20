// pcie_replays: the PCIe replay counter that grows. Above DCGM's 8 per minute it warns; below, it
// is said (info): a link that replays at all is a link to watch under load.
#include <fmt/format.h>

#include "analysis/finding_codes.hpp"
#include "analysis/health/health_rules.hpp"
#include "analysis/health/rule_support.hpp"

namespace gpuvet::analysis::health {
namespace {

struct PcieReplayRule {
  static constexpr std::string_view code = code::pcie_replays;
  struct State {
    CounterGrowth replays;
  };

  static void on_sample(State& s, const SampleInput& in, const HealthLimits& limits) {
    if (in.sample.pcie_replays.known()) s.replays.observe(in.sample.t_s, *in.sample.pcie_replays, limits);
  }

  static void on_rollup(State& s, const RollupSpan& in, const HealthLimits& limits) {
    if (!in.values.pcie_replays) return;
    if (in.prior) {
      s.replays.add_prior_growth(in.from_s, in.to_s, *in.values.pcie_replays);
    } else {
      s.replays.add_growth(in.from_s, in.to_s, *in.values.pcie_replays, limits);
    }
  }

  static void judge(const State& s, int gpu, const HealthView& view, std::vector<HealthFinding>& out) {
    if (!counts(s.replays, view)) return;
    const double per_min = worst_rate_per_s(s.replays, view) * 60;
    const bool tail = !view.live && s.replays.only_prior_tail();
    const bool over = !tail && per_min > view.limits.pcie_replays_per_min;
    std::string message = fmt::format("GPU {}: {} PCIe replays {}, {}{}", gpu, growth_of(s.replays, view),
                                      view.live ? "in the last window" : view.words.during, growth_words(s.replays, view),
                                      over ? fmt::format(" (above DCGM's {} per minute)", number(view.limits.pcie_replays_per_min, 0))
                                           : std::string());
    if (tail) message += "; only the tail of growth before the period, at its start";
    out.push_back(health_finding(code, over ? core::Severity::warn : core::Severity::info, gpu, std::move(message),
                                 {{"replays_new", std::to_string(growth_of(s.replays, view))},
                                  {"per_minute", number(mean_rate_per_s(s.replays, view) * 60, 2)},
                                  {"peak_per_minute", number(per_min, 2)}},
                                 since_of(s.replays, view), view));
  }
};

}  // namespace

const HealthRule& pcie_replay_rule() {
  static const RuleOf<PcieReplayRule> rule;
  return rule;
}

}  // namespace gpuvet::analysis::health
