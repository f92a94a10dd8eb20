// Time series of a stored burn-in run per GPU, and the statistics the burn-in rules share
// (internal to analysis/burnin_*).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "analysis/burnin_judge.hpp"
#include "core/finding.hpp"
#include "core/telemetry.hpp"

namespace gpuvet::analysis::burnin {

struct Series {
  int gpu = 0;
  std::vector<const core::TelemetrySample*> samples;  // by time
};

struct Context {
  const core::BurninRecord& record;
  const BurninThresholds& thresholds;
  std::map<int, Series> series;        // by GPU index, only GPUs with samples
  double warmup_end_s = 0;             // steady-state statistics start here
  double interval_s = 1;
};

Context make_context(const core::BurninRecord& record, const BurninThresholds& thresholds);

std::optional<double> median(std::vector<double> values);
// Values of `member` for samples under load (tflops known) at or after the warm-up.
std::vector<double> steady_values(const Context& ctx, const Series& s, core::Reading<double> core::TelemetrySample::*member);
// "00:12:05" and "00:12:05-01:30:00".
std::string hms(double seconds);
std::string window(double from_s, double to_s);
std::string format_number(double value, int decimals);
// A finding with the catalogue's next step.
core::Finding finding(std::string_view code, core::Severity severity, std::vector<int> gpus, std::string message,
                      std::vector<std::pair<std::string, std::string>> evidence);

// Rule families (burnin_performance_rules.cpp, burnin_health_rules.cpp).
void straggler_rule(const Context& ctx, std::vector<core::Finding>& out);
void clock_desync_rule(const Context& ctx, std::vector<core::Finding>& out);
void thermal_rule(const Context& ctx, std::vector<core::Finding>& out);
void power_rule(const Context& ctx, std::vector<core::Finding>& out);
void throttle_rule(const Context& ctx, std::vector<core::Finding>& out);
void ecc_rule(const Context& ctx, std::vector<core::Finding>& out);
void event_rule(const Context& ctx, std::vector<core::Finding>& out);
void nvlink_rule(const Context& ctx, std::vector<core::Finding>& out);
void pcie_rule(const Context& ctx, std::vector<core::Finding>& out);
void miscompare_rule(const Context& ctx, std::vector<core::Finding>& out);
void memory_rule(const Context& ctx, std::vector<core::Finding>& out);

}  // namespace gpuvet::analysis::burnin
