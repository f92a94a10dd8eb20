// pcie_link_degraded at run time: a PCIe link below its maximum for at least
// HealthLimits::pcie_degraded_min_s without a break. Fewer lanes fail at any load (a riser or slot
// that downtrains, often only when hot); a lower generation warns only while the GPU is busy,
// since an idle GPU lowers it to save power (an idle reading neither starts nor ends a run).
// Rollups keep neither, so they are judged from raw samples only.
#include <fmt/format.h>

#include "analysis/finding_codes.hpp"
#include "analysis/health/health_rules.hpp"
#include "analysis/health/rule_support.hpp"

namespace gpuvet::analysis::health {
namespace {

struct PcieLinkRule {
  static constexpr std::string_view code = code::pcie_link_degraded;
  struct State {
    explicit State(const HealthLimits& limits) {
      narrow.set_min_run(limits.pcie_degraded_min_s);
      slow.set_min_run(limits.pcie_degraded_min_s);
    }
    HeldCondition narrow, slow;
    std::string link, worst_link;  // "Gen 4 x8 of Gen 5 x16": the last reading, and the narrowest seen
    int worst_width = 1 << 20, worst_gen = 1 << 20;
  };

  static void on_sample(State& s, const SampleInput& in, const HealthLimits& limits) {
    const auto& x = in.sample;
    const bool widths = x.pcie_link_width.known() && x.pcie_link_width_max.known();
    const bool gens = x.pcie_link_gen.known() && x.pcie_link_gen_max.known();
    if (widths) s.narrow.observe(x.t_s, *x.pcie_link_width < *x.pcie_link_width_max, in.interval_s);
    const bool busy = x.util_gpu_pct.known() && *x.util_gpu_pct >= limits.busy_util_pct;
    if (gens && busy) s.slow.observe(x.t_s, *x.pcie_link_gen < *x.pcie_link_gen_max, in.interval_s);
    if (!widths || !gens) return;
    s.link = fmt::format("Gen {} x{} of Gen {} x{}", *x.pcie_link_gen, *x.pcie_link_width, *x.pcie_link_gen_max, *x.pcie_link_width_max);
    const bool counted = *x.pcie_link_width < *x.pcie_link_width_max || busy;
    if (counted && (*x.pcie_link_width < s.worst_width || (*x.pcie_link_width == s.worst_width && *x.pcie_link_gen < s.worst_gen))) {
      s.worst_width = *x.pcie_link_width;
      s.worst_gen = *x.pcie_link_gen;
      s.worst_link = s.link;
    }
  }

  static void judge(const State& s, int gpu, const HealthView& view, std::vector<HealthFinding>& out) {
    const double min_s = view.limits.pcie_degraded_min_s;
    const bool narrow = held_long(s.narrow, min_s, view), slow = held_long(s.slow, min_s, view);
    if (!narrow && !slow) return;
    const HeldCondition& held = narrow ? s.narrow : s.slow;
    const double since = held_since(held, view);
    const std::string link = view.live ? s.link : s.worst_link;
    const double length = view.live ? held.current().length_s() : held.longest().length_s();
    std::string message =
        view.live ? fmt::format("GPU {}: PCIe link {} since {}{}", gpu, link.empty() ? std::string("below its maximum") : link,
                                view.words.at(since), narrow ? "" : " while busy")
                  : fmt::format("GPU {}: PCIe link {} {}{} from {}, for {} without a break{}", gpu,
                                link.empty() ? std::string("below its maximum") : "at " + link, view.words.during,
                                narrow ? "" : " while busy", view.words.at(since), view.words.duration(length),
                                narrow ? " (fewer lanes: a riser, cable or slot that downtrains)" : "");
    out.push_back(health_finding(code, narrow ? core::Severity::fail : core::Severity::warn, gpu, std::move(message),
                                 {{"link", link}, {"narrow", narrow ? "true" : "false"}, {"held_s", number(length, 0)}}, since, view));
  }
};

}  // namespace

const HealthRule& pcie_link_rule() {
  static const RuleOf<PcieLinkRule> rule;
  return rule;
}

}  // namespace gpuvet::analysis::health
