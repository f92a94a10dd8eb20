// Building blocks of the Prometheus rules file (prometheus_rules.cpp, prometheus_baseline_rules.cpp):
// windows scaled by --speed, and recording and alerting rules as data. Internal to the monitor.
#pragma once

#include <chrono>
#include <cmath>
#include <string>
#include <string_view>

#include "monitor/prometheus_rules.hpp"

namespace gpuvet::monitor {

// A window at --speed 1 divided by the speed, at least 1 s.
class Scaler {
 public:
  explicit Scaler(double speed) : speed_(speed > 0 ? speed : 1.0) {}
  [[nodiscard]] std::chrono::seconds operator()(std::chrono::seconds base) const {
    const auto s = static_cast<long long>(std::llround(static_cast<double>(base.count()) / speed_));
    return std::chrono::seconds(s < 1 ? 1 : s);
  }
  // "[10m]" scaled.
  [[nodiscard]] std::string range(std::chrono::seconds base) const {
    return "[" + prometheus_duration((*this)(base)) + "]";
  }

 private:
  double speed_;
};

inline PrometheusRule record(std::string name, std::string expr) {
  PrometheusRule r;
  r.record = std::move(name);
  r.expr = std::move(expr);
  return r;
}

// An alert with a finding code (empty: about the daemon itself); an empty next_step takes the
// catalogue's.
inline PrometheusRule alert(std::string name, std::string_view code, core::Severity severity, std::string expr,
                            std::chrono::seconds for_, std::string summary, std::string next_step = {}) {
  PrometheusRule r;
  r.alert = std::move(name);
  r.code = std::string(code);
  r.severity = severity;
  r.expr = std::move(expr);
  r.for_ = for_;
  r.summary = std::move(summary);
  r.next_step = std::move(next_step);
  return r;
}

// baseline_drift over the gpuvet_baseline_* gauges (prometheus_baseline_rules.cpp).
PrometheusRuleGroup baseline_drift_rules(const Scaler& scale);

}  // namespace gpuvet::monitor
