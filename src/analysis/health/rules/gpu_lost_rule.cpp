// gpu_lost: a GPU the run or history knows that stopped answering: NVML said it is lost (fallen
// off the bus), it gave no reading at all (hung, unresponsive, not enumerated since a restart),
// or a rollup's samples hold no reading. One code in every face (the static picture's
// gpu_missing is for GPUs a machine should have and does not show).
#include <fmt/format.h>

#include "analysis/finding_codes.hpp"
#include "analysis/health/health_rules.hpp"
#include "analysis/health/rule_support.hpp"

namespace gpuvet::analysis::health {
namespace {

bool rollup_silent(const RollupInput& r) { return r.samples > 0 && !r.temp_c && !r.power_w && !r.sm_clock_mhz && !r.util_pct; }

struct GpuLostRule {
  static constexpr std::string_view code = code::gpu_lost;
  struct State {
    HeldCondition silent;
    std::size_t silent_samples = 0;
    std::string reason;          // the first silence's or loss event's words
    double lost_event_s = -1;    // NVML said lost (the event), and no answer since
    double first_lost_event_s = -1;
  };

  static void on_sample(State& s, const SampleInput& in, const HealthLimits&) {
    s.silent.observe(in.sample.t_s, !in.answers, in.interval_s);
    if (in.answers) {
      s.lost_event_s = -1;
      return;
    }
    if (s.silent_samples++ == 0 && s.reason.empty()) s.reason = std::string(in.silence);
  }

  static void on_rollup(State& s, const RollupSpan& in, const HealthLimits&) {
    if (in.prior || !rollup_silent(in.values)) return;
    s.silent.add_held(in.from_s, in.to_s, static_cast<double>(in.values.samples) * in.interval_s);
    s.silent_samples += in.values.samples;
    if (s.reason.empty()) s.reason = "the hourly rollup holds no reading";
  }

  static void on_event(State& s, const core::TelemetryEvent& e) {
    if (e.kind != core::TelemetryEventKind::gpu_lost) return;
    if (s.lost_event_s < 0) s.lost_event_s = e.t_s;
    if (s.first_lost_event_s < 0) s.first_lost_event_s = e.t_s;
    if (!e.message.empty()) s.reason = e.message;
  }

  static std::string uuid_of(int gpu, const HealthView& view) {
    if (view.gpus != nullptr) {
      for (const auto& g : *view.gpus) {
        if (g.index == gpu && g.uuid.known()) return *g.uuid;
      }
    }
    return "UUID not recorded";
  }

  static void judge(const State& s, int gpu, const HealthView& view, std::vector<HealthFinding>& out) {
    const std::string reason = s.reason.empty() ? "no reading" : s.reason;
    if (view.live) {
      const bool event = s.lost_event_s >= 0 && s.lost_event_s <= view.now_s;
      if (!s.silent.on() && !event) return;
      const double since = s.silent.on() ? s.silent.current().from_s : s.lost_event_s;
      out.push_back(health_finding(code, core::Severity::fail, gpu,
                                   fmt::format("GPU {} stopped answering since {} ({}); UUID {}", gpu, view.words.at(since), reason,
                                               uuid_of(gpu, view)),
                                   {{"lost_since", view.words.at(since)}, {"uuid", uuid_of(gpu, view)}}, since, view));
      return;
    }
    if (s.silent.first_s() < 0 && s.first_lost_event_s < 0) return;
    const double since = s.first_lost_event_s >= 0 && (s.silent.first_s() < 0 || s.first_lost_event_s < s.silent.first_s())
                             ? s.first_lost_event_s
                             : s.silent.first_s();
    Evidence evidence = {{"lost_at", view.words.at(since)}, {"uuid", uuid_of(gpu, view)}, {"history_index", std::to_string(gpu)}};
    std::string message = fmt::format("GPU {} stopped answering {} at {} ({})", gpu, view.words.during, view.words.at(since), reason);
    if (s.silent_samples > 0) {
      message += fmt::format("; no reading in {} sample(s), the longest run from {}", s.silent_samples,
                             view.words.span(s.silent.longest().from_s, s.silent.longest().to_s));
      evidence.emplace_back("silent_samples", std::to_string(s.silent_samples));
      evidence.emplace_back("silent_from", view.words.at(s.silent.first_s()));
      evidence.emplace_back("silent_to", view.words.at(s.silent.longest().to_s));
    }
    message += fmt::format("; UUID {}, GPU {} of this history", uuid_of(gpu, view), gpu);
    out.push_back(health_finding(code, core::Severity::fail, gpu, std::move(message), std::move(evidence), since, view));
  }
};

}  // namespace

const HealthRule& gpu_lost_rule() {
  static const RuleOf<GpuLostRule> rule;
  return rule;
}

}  // namespace gpuvet::analysis::health
