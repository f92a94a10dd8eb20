// Row remapping (Ampere and later): row_remap_pending (a remap waits for a GPU reset: fail),
// row_remap_failure (a remap found no spare row: fail) and remapped_rows_growing (rows remapped
// after uncorrectable errors fail, after correctable ones warn). Rollups keep none of these, so
// they are judged from raw samples only.
#include <fmt/format.h>

#include "analysis/finding_codes.hpp"
#include "analysis/health/health_rules.hpp"
#include "analysis/health/rule_support.hpp"

namespace gpuvet::analysis::health {
namespace {

// A flag the GPU reports (pending, failed): fail from its first reading that holds.
struct FlagState {
  HeldCondition held;
};

struct RowRemapPendingRule {
  static constexpr std::string_view code = code::row_remap_pending;
  using State = FlagState;
  static void on_sample(State& s, const SampleInput& in, const HealthLimits&) {
    if (in.sample.remap_pending.known()) s.held.observe(in.sample.t_s, *in.sample.remap_pending, in.interval_s);
  }
  static void judge(const State& s, int gpu, const HealthView& view, std::vector<HealthFinding>& out) {
    if (!held_long(s.held, 0, view)) return;
    const double since = held_since(s.held, view);
    out.push_back(health_finding(code, core::Severity::fail, gpu,
                                 fmt::format("GPU {} has a row remap pending (a GPU reset applies it) since {}", gpu, view.words.at(since)),
                                 {{"first_seen", view.words.at(since)}}, since, view));
  }
};

struct RowRemapFailureRule {
  static constexpr std::string_view code = code::row_remap_failure;
  using State = FlagState;
  static void on_sample(State& s, const SampleInput& in, const HealthLimits&) {
    if (in.sample.remap_failed.known()) s.held.observe(in.sample.t_s, *in.sample.remap_failed, in.interval_s);
  }
  static void judge(const State& s, int gpu, const HealthView& view, std::vector<HealthFinding>& out) {
    if (!held_long(s.held, 0, view)) return;
    const double since = held_since(s.held, view);
    out.push_back(health_finding(code, core::Severity::fail, gpu,
                                 fmt::format("GPU {}: a row remap failed (no spare row left) since {}", gpu, view.words.at(since)),
                                 {{"since", view.words.at(since)}}, since, view));
  }
};

struct RemappedRowsRule {
  static constexpr std::string_view code = code::remapped_rows_growing;
  struct State {
    CounterGrowth correctable, uncorrectable;
  };
  static void on_sample(State& s, const SampleInput& in, const HealthLimits& limits) {
    const auto& x = in.sample;
    if (x.remapped_rows_correctable.known()) s.correctable.observe(x.t_s, *x.remapped_rows_correctable, limits);
    if (x.remapped_rows_uncorrectable.known()) s.uncorrectable.observe(x.t_s, *x.remapped_rows_uncorrectable, limits);
  }
  static void judge(const State& s, int gpu, const HealthView& view, std::vector<HealthFinding>& out) {
    const bool unc = counts(s.uncorrectable, view), cor = counts(s.correctable, view);
    if (!unc && !cor) return;
    const std::uint64_t unc_new = unc ? growth_of(s.uncorrectable, view) : 0, cor_new = cor ? growth_of(s.correctable, view) : 0;
    const double since = unc ? since_of(s.uncorrectable, view) : since_of(s.correctable, view);
    out.push_back(health_finding(code, unc ? core::Severity::fail : core::Severity::warn, gpu,
                                 fmt::format("GPU {}: memory rows remapped {} from {} (+{} for uncorrectable, +{} for correctable errors)",
                                             gpu, view.live ? "in the last window" : view.words.during, view.words.at(since), unc_new,
                                             cor_new),
                                 {{"uncorrectable_new", std::to_string(unc_new)}, {"correctable_new", std::to_string(cor_new)}}, since,
                                 view));
  }
};

}  // namespace

const HealthRule& row_remap_pending_rule() {
  static const RuleOf<RowRemapPendingRule> rule;
  return rule;
}
const HealthRule& row_remap_failure_rule() {
  static const RuleOf<RowRemapFailureRule> rule;
  return rule;
}
const HealthRule& remapped_rows_rule() {
  static const RuleOf<RemappedRowsRule> rule;
  return rule;
}

}  // namespace gpuvet::analysis::health
