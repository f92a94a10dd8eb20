// `gpuvet monitor rules`: the monitor's alert rules as a Prometheus alerting rules file over the
// gpuvet_* metric names of /metrics, for fleets that evaluate alerts in Prometheus and
// Alertmanager instead of the daemon. Each alert carries the finding code of docs/findings.md
// (label `code`), gpuvet's severity (label `severity`: warn or fail), the catalogue's next step
// and `for:` windows. dist/prometheus/gpuvet-rules.yml is this output at --speed 1.
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "core/finding.hpp"

namespace gpuvet::monitor {

struct RulesOptions {
  // Every window and `for:` divided by this, to pair the rules with `gpuvet monitor --sim
  // --speed N` (virtual time N times faster) in tests and demos. 1 for real machines.
  double speed = 1.0;
};

// One recording or alerting rule, before it is written as YAML.
struct PrometheusRule {
  std::string record;            // recording rule name (empty for an alert)
  std::string alert;             // alert name (empty for a recording rule)
  std::string expr;              // PromQL
  std::chrono::seconds for_{0};  // alerts: how long the condition must hold
  std::string code;              // alerts: finding code (docs/findings.md); empty: about the daemon itself
  core::Severity severity = core::Severity::warn;
  std::string summary;           // alerts: one line with {{ $labels.* }} / {{ $value }}
  std::string next_step;         // alerts: empty takes the catalogue's next step for `code`
};

struct PrometheusRuleGroup {
  std::string name;
  std::chrono::seconds interval{0};  // 0: Prometheus' global evaluation_interval
  std::vector<PrometheusRule> rules;
};

// The rules as data (tests check codes against the catalogue).
std::vector<PrometheusRuleGroup> prometheus_rule_groups(const RulesOptions& options = {});
// The rules file (YAML, `groups:`), checked by `promtool check rules` and `promtool test rules`.
std::string prometheus_alert_rules(const RulesOptions& options = {});
// A duration as Prometheus writes it ("90s", "30m", "2h"); at least 1s.
std::string prometheus_duration(std::chrono::seconds duration);

}  // namespace gpuvet::monitor
