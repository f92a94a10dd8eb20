// What one health rule is (analysis/health): the state it keeps per GPU, how a sample, a rollup and
// an event feed it, and how it judges a period (the burn-in report, `report --db`, `trend`) or a
// live moment (the monitor daemon) from that one state. A rule is one file (rules/*.cpp) that
// defines a struct with `code`, `State` and the handlers it needs, wrapped by RuleOf; the explicit
// list is health_rules.cpp. Pure; called on one thread.
#pragma once

#include <concepts>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/health/health_limits.hpp"
#include "analysis/trend_history.hpp"
#include "core/finding.hpp"
#include "core/telemetry.hpp"

namespace gpuvet::analysis::health {

// How findings name moments: offsets into a burn-in ("00:12:05") or UTC dates (a monitor's
// history, the daemon), and the span judged.
struct HealthWords {
  std::int64_t started_unix_ms = 0;  // run time 0
  bool wall_clock = false;
  std::string during = "during the burn-in";  // or "in the period"
  std::string basis;                          // said of findings from rollups: "hourly rollups"
  [[nodiscard]] std::string at(double t_s) const;
  [[nodiscard]] std::string span(double from_s, double to_s) const;
  [[nodiscard]] std::string duration(double seconds) const;  // "00:45:00"
};

// What is judged: a live moment (what fires at now_s) or a period (the worst moment in it).
struct HealthView {
  bool live = false;
  double now_s = 0;
  HealthLimits limits;
  HealthWords words;
  const std::vector<core::BurninGpu>* gpus = nullptr;  // identities (UUID) for gpu_lost; may be null
};

struct HealthFinding {
  core::Finding finding;
  double since_s = 0;  // when the condition began (live: the alert's since)
};

// One sample as the rules see it. `answers`: the GPU gave a reading (the daemon knows which fields
// a GPU cannot report at all; elsewhere: any of temperature, power, SM clock, utilization).
struct SampleInput {
  const core::TelemetrySample& sample;
  bool answers = true;
  std::string_view silence;  // why not, when it does not answer
  double interval_s = 1;
};

// One rollup (what is left once raw samples are pruned) over [from_s, to_s] of run time.
struct RollupSpan {
  const RollupInput& values;
  double from_s = 0, to_s = 0;
  double interval_s = 1;
  bool prior = false;  // the span just before the judged period: context, not judged
};

struct RuleState {
  virtual ~RuleState() = default;
};

class HealthRule {
 public:
  virtual ~HealthRule() = default;
  [[nodiscard]] virtual std::string_view code() const = 0;
  [[nodiscard]] virtual std::unique_ptr<RuleState> start(const HealthLimits& limits) const = 0;
  virtual void on_sample(RuleState& state, const SampleInput& in, const HealthLimits& limits) const = 0;
  virtual void on_rollup(RuleState& state, const RollupSpan& in, const HealthLimits& limits) const = 0;
  virtual void on_event(RuleState& state, const core::TelemetryEvent& event) const = 0;
  virtual void judge(const RuleState& state, int gpu, const HealthView& view, std::vector<HealthFinding>& out) const = 0;
  // Objects the state holds (links, Xid codes): bounded, for the daemon's memory test.
  [[nodiscard]] virtual std::size_t retained(const RuleState& state) const = 0;
};

// A rule written as a struct: `static constexpr std::string_view code`, `struct State` (with an
// optional `explicit State(const HealthLimits&)` and `std::size_t retained() const`), and any of
// on_sample, on_rollup, on_event (static, taking State&), plus static judge(const State&, int gpu,
// const HealthView&, std::vector<HealthFinding>&).
template <class Rule>
class RuleOf final : public HealthRule {
  struct Holder : RuleState {
    explicit Holder(const HealthLimits& limits) : state(make(limits)) {}
    static typename Rule::State make(const HealthLimits& limits) {
      if constexpr (std::constructible_from<typename Rule::State, const HealthLimits&>) {
        return typename Rule::State(limits);
      } else {
        return typename Rule::State{};
      }
    }
    typename Rule::State state;
  };
  static typename Rule::State& of(RuleState& s) { return static_cast<Holder&>(s).state; }
  static const typename Rule::State& of(const RuleState& s) { return static_cast<const Holder&>(s).state; }

 public:
  [[nodiscard]] std::string_view code() const override { return Rule::code; }
  [[nodiscard]] std::unique_ptr<RuleState> start(const HealthLimits& limits) const override {
    return std::make_unique<Holder>(limits);
  }
  void on_sample(RuleState& s, const SampleInput& in, const HealthLimits& limits) const override {
    if constexpr (requires { Rule::on_sample(of(s), in, limits); }) Rule::on_sample(of(s), in, limits);
  }
  void on_rollup(RuleState& s, const RollupSpan& in, const HealthLimits& limits) const override {
    if constexpr (requires { Rule::on_rollup(of(s), in, limits); }) Rule::on_rollup(of(s), in, limits);
  }
  void on_event(RuleState& s, const core::TelemetryEvent& e) const override {
    if constexpr (requires { Rule::on_event(of(s), e); }) Rule::on_event(of(s), e);
  }
  void judge(const RuleState& s, int gpu, const HealthView& view, std::vector<HealthFinding>& out) const override {
    Rule::judge(of(s), gpu, view, out);
  }
  [[nodiscard]] std::size_t retained(const RuleState& s) const override {
    if constexpr (requires { of(s).retained(); }) {
      return of(s).retained();
    } else {
      return 1;
    }
  }
};

}  // namespace gpuvet::analysis::health
