// retired_pages (before Ampere: pages retired instead of rows remapped): a retirement pending a
// reboot or double-bit retirements growing fail; single-bit retirements growing warn.
#include <fmt/format.h>

#include "analysis/finding_codes.hpp"
#include "analysis/health/health_rules.hpp"
#include "analysis/health/rule_support.hpp"

namespace gpuvet::analysis::health {
namespace {

struct RetiredPagesRule {
  static constexpr std::string_view code = code::retired_pages;
  struct State {
    HeldCondition pending;
    CounterGrowth sbe, dbe;
  };
  static void on_sample(State& s, const SampleInput& in, const HealthLimits& limits) {
    const auto& x = in.sample;
    if (x.retired_pages_pending.known()) s.pending.observe(x.t_s, *x.retired_pages_pending, in.interval_s);
    if (x.retired_pages_sbe.known() && *x.retired_pages_sbe >= 0) s.sbe.observe(x.t_s, static_cast<std::uint64_t>(*x.retired_pages_sbe), limits);
    if (x.retired_pages_dbe.known() && *x.retired_pages_dbe >= 0) s.dbe.observe(x.t_s, static_cast<std::uint64_t>(*x.retired_pages_dbe), limits);
  }
  static void judge(const State& s, int gpu, const HealthView& view, std::vector<HealthFinding>& out) {
    const bool pending = held_long(s.pending, 0, view), dbe = counts(s.dbe, view), sbe = counts(s.sbe, view);
    if (!pending && !dbe && !sbe) return;
    const double since = pending ? held_since(s.pending, view) : dbe ? since_of(s.dbe, view) : since_of(s.sbe, view);
    const std::uint64_t sbe_new = sbe ? growth_of(s.sbe, view) : 0, dbe_new = dbe ? growth_of(s.dbe, view) : 0;
    out.push_back(health_finding(code, pending || dbe ? core::Severity::fail : core::Severity::warn, gpu,
                                 fmt::format("GPU {}: memory pages retired {} from {} (+{} single-bit, +{} double-bit{})", gpu,
                                             view.live ? "in the last window" : view.words.during, view.words.at(since), sbe_new, dbe_new,
                                             pending ? ", a retirement pending a reboot" : ""),
                                 {{"sbe_new", std::to_string(sbe_new)},
                                  {"dbe_new", std::to_string(dbe_new)},
                                  {"pending", pending ? "true" : "false"},
                                  {"first_seen", view.words.at(since)}},
                                 since, view));
  }
};

}  // namespace

const HealthRule& retired_pages_rule() {
  static const RuleOf<RetiredPagesRule> rule;
  return rule;
}

}  // namespace gpuvet::analysis::health
