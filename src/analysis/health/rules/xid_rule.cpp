// xid_event: an Xid the driver reported, judged by its row of NVIDIA's catalogue (analysis/
// xid_catalog: meaning, action, severity; warn for an Xid not in gpuvet's copy). Live, it stays up
// HealthLimits::xid_hold_s after the last one.
#include <map>

#include <fmt/format.h>

#include "analysis/finding_codes.hpp"
#include "analysis/health/health_rules.hpp"
#include "analysis/health/rule_support.hpp"
#include "analysis/xid_catalog.hpp"

namespace gpuvet::analysis::health {
namespace {

struct XidRule {
  static constexpr std::string_view code = code::xid_event;
  struct Seen {
    std::size_t count = 0;
    double first_s = 0, last_s = 0;
  };
  struct State {
    std::map<int, Seen> xids;  // bounded by the Xid codes there are
    [[nodiscard]] std::size_t retained() const { return xids.size() + 1; }
  };

  static void on_event(State& s, const core::TelemetryEvent& e) {
    if (e.kind != core::TelemetryEventKind::xid) return;
    Seen& x = s.xids[e.code];
    if (x.count++ == 0) x.first_s = e.t_s;
    x.last_s = e.t_s;
  }

  static void judge(const State& s, int gpu, const HealthView& view, std::vector<HealthFinding>& out) {
    for (const auto& [xid, x] : s.xids) {
      if (view.live && (x.first_s > view.now_s || view.now_s - x.last_s > view.limits.xid_hold_s)) continue;
      const XidInfo* info = find_xid(xid);
      const std::string meaning = info ? std::string(info->meaning) : "not in gpuvet's copy of NVIDIA's Xid catalogue";
      const std::string action = info ? std::string(describe(info->action)) : "see NVIDIA's Xid catalogue";
      auto f = health_finding(code, info ? info->severity : core::Severity::warn, gpu,
                              fmt::format("GPU {} reported Xid {} ({}) {}, {} at {}; NVIDIA's action: {}", gpu, xid, meaning,
                                          x.count == 1 ? std::string("once") : fmt::format("{} times", x.count),
                                          x.count == 1 ? "" : "last", view.words.at(x.last_s), action),
                              {{"xid", std::to_string(xid)},
                               {"count", std::to_string(x.count)},
                               {"window", view.words.span(x.first_s, x.last_s)},
                               {"nvidia_action", action}},
                              x.first_s, view);
      f.finding.next_step = fmt::format("{} (NVIDIA's Xid catalogue for Xid {}); check dmesg around the time given.", action, xid);
      out.push_back(std::move(f));
    }
  }
};

}  // namespace

const HealthRule& xid_rule() {
  static const RuleOf<XidRule> rule;
  return rule;
}

}  // namespace gpuvet::analysis::health
