// ecc_errors_new: ECC error counters (volatile, since the driver loaded) that grow. Uncorrected
// errors fail; corrected ones warn (the error was fixed, but a card that keeps correcting is a card
// to watch: retired pages and remapped rows follow).
#include <fmt/format.h>

#include "analysis/finding_codes.hpp"
#include "analysis/health/health_rules.hpp"
#include "analysis/health/rule_support.hpp"

namespace gpuvet::analysis::health {
namespace {

void feed(CounterGrowth& c, const RollupSpan& in, const std::optional<std::uint64_t>& grown, const HealthLimits& limits) {
  if (!grown) return;
  if (in.prior) {
    c.add_prior_growth(in.from_s, in.to_s, *grown);
  } else {
    c.add_growth(in.from_s, in.to_s, *grown, limits);
  }
}

struct EccGrowthRule {
  static constexpr std::string_view code = code::ecc_errors_new;
  struct State {
    CounterGrowth corrected, uncorrected;
  };

  static void on_sample(State& s, const SampleInput& in, const HealthLimits& limits) {
    if (in.sample.ecc_corrected.known()) s.corrected.observe(in.sample.t_s, *in.sample.ecc_corrected, limits);
    if (in.sample.ecc_uncorrected.known()) s.uncorrected.observe(in.sample.t_s, *in.sample.ecc_uncorrected, limits);
  }

  static void on_rollup(State& s, const RollupSpan& in, const HealthLimits& limits) {
    feed(s.corrected, in, in.values.ecc_corrected, limits);
    feed(s.uncorrected, in, in.values.ecc_uncorrected, limits);
  }

  static void judge(const State& s, int gpu, const HealthView& view, std::vector<HealthFinding>& out) {
    const bool unc = counts(s.uncorrected, view), cor = counts(s.corrected, view);
    if (!unc && !cor) return;
    const CounterGrowth& main = unc ? s.uncorrected : s.corrected;
    const bool tail = !view.live && main.only_prior_tail() && (!unc || !cor || s.corrected.only_prior_tail());
    Evidence evidence;
    if (cor) {
      evidence.emplace_back("corrected_new", std::to_string(growth_of(s.corrected, view)));
      evidence.emplace_back("corrected_per_hour", number(mean_rate_per_s(s.corrected, view) * 3600, 1));
    }
    if (unc) evidence.emplace_back("uncorrected_new", std::to_string(growth_of(s.uncorrected, view)));
    std::string message = fmt::format("GPU {} reported {} {} ECC error(s) {}: {}", gpu, growth_of(main, view),
                                      unc ? "new uncorrected" : "new corrected", view.live ? "in the last window" : view.words.during,
                                      growth_words(main, view));
    if (unc && cor) message += fmt::format("; corrected {}", growth_words(s.corrected, view));
    if (tail) message += "; only the tail of growth before the period, at its start";
    const core::Severity severity = tail ? core::Severity::info : unc ? core::Severity::fail : core::Severity::warn;
    out.push_back(health_finding(code, severity, gpu, std::move(message), std::move(evidence), since_of(main, view), view));
  }
};

}  // namespace

const HealthRule& ecc_growth_rule() {
  static const RuleOf<EccGrowthRule> rule;
  return rule;
}

}  // namespace gpuvet::analysis::health
