// Running state of the streaming burn-in judge (internal to analysis/burnin_*): what each GPU's
// samples leave behind once seen (exact value distributions, counter growth, first and last
// times), bounded by the number of distinct values, never by the number of samples.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "analysis/burnin_judge.hpp"
#include "analysis/health/health_judge.hpp"
#include "analysis/traffic_tally.hpp"
#include "core/finding.hpp"
#include "core/telemetry.hpp"
#include "core/statistics.hpp"

namespace gpuvet::analysis::burnin {

// An exact distribution: each distinct value with how often it was seen and when first and last.
// Its size is the number of distinct values (the store keeps a fixed resolution, e.g. 0.01 °C, so
// that is bounded by the range of the reading), and its median is the median of every value added.
class Histogram {
 public:
  void add(double value, double t_s);
  [[nodiscard]] std::size_t size() const { return count_; }
  [[nodiscard]] std::optional<double> median() const;
  // First and last time of a value below `limit` (-1 when none).
  [[nodiscard]] std::pair<double, double> times_below(double limit) const;
  // First time of a value at or above `limit` (-1 when none).
  [[nodiscard]] double first_at_or_above(double limit) const;

 private:
  struct Bin {
    std::size_t count = 0;
    double first_s = 0, last_s = 0;
  };
  std::map<double, Bin> bins_;
  std::size_t count_ = 0;
};

// A loaded sample (TFLOP/s known) seen before the warm-up could be known to have ended: kept until
// finish() decides whether it counts (at most warm-up cap / interval per GPU).
struct PendingSteady {
  double t_s = 0;
  std::optional<double> tflops;  // absent in a monitor's history (loaded by utilization)
  std::optional<double> temp_c, power_w, sm_clock_mhz;
  bool thermal = false;  // a thermal/hardware slowdown reason was set
};

// A clock-desync episode of one GPU (SM clock below its peers at the same tick).
struct Episode {
  double first = -1, last = -1, longest = 0, run_start = -1, total = 0, min_clock = 1e18, peer_clock = 0;
  double prev = -1;
};

struct GpuState {
  int gpu = 0;
  std::size_t samples = 0;
  double first_s = 0, last_s = 0;
  // Steady state (after the warm-up, under load).
  Histogram tflops, temp_c, power_w, sm_clock_mhz;
  Histogram power_unthrottled_w;  // power_rule: leaves out thermal/hardware slowdowns
  std::size_t steady_loaded = 0;
  double loaded_first_s = -1, loaded_last_s = -1;
  std::vector<PendingSteady> pending;
  // Whole run.
  Histogram loaded_temp_c;        // temperatures under load, for the first time above a limit
  std::optional<double> max_temp_c;
  bool any_temp = false;
  std::string first_temp_reason;  // why the first sample had no temperature
  std::uint64_t miscompares = 0;
  double first_miscompare_s = -1;
  Episode desync;
};

// What the events of a run leave behind (Xids and losses: the health judge's).
struct EventTally {
  std::vector<core::TelemetryEvent> safety_stops;  // in order, except Xid 79 stops
  std::vector<std::string> stress_errors;          // unverified lines, in order
  std::set<int> lost_or_79;
  std::set<int> stopped;                    // load stopped early (safety, lost, error)
};

// Everything the rules read when the run is judged.
struct Context {
  const core::BurninRunInfo& run;
  const std::vector<core::BurninGpu>& gpus;
  const BurninThresholds& thresholds;
  const std::map<int, GpuState>& series;  // only GPUs with samples
  const EventTally& events;
  const health::HealthJudge& health;
  double interval_s = 1;
  bool wall_clock = false;  // a monitor's history: times as UTC dates, "in the period" for "during the burn-in"
  bool monitor = false;     // a monitor's history: no load of gpuvet's own, no planned duration
  const TrafficTally* traffic = nullptr;  // the link traffic beside the load (burn-ins only)
  double warmup_end_s = 0;  // steady state from here
};

using core::median;  // core/statistics.hpp
// "00:12:05" and "00:12:05-01:30:00".
std::string hms(double seconds);
std::string window(double from_s, double to_s);
// A moment of the run: "00:12:05" into a burn-in, "2026-12-01 17:05:09 UTC" in a monitor's history.
std::string at(const Context& ctx, double t_s);
std::string span(const Context& ctx, double from_s, double to_s);
// "during the burn-in" or "in the period".
std::string_view during(const Context& ctx);
std::string format_number(double value, int decimals);
// A finding with the catalogue's next step.
core::Finding finding(std::string_view code, core::Severity severity, std::vector<int> gpus, std::string message,
                      std::vector<std::pair<std::string, std::string>> evidence);

// Per-sample updates of the miscompare count (burnin_health_rules.cpp).
void observe_miscompares(GpuState& g, const core::TelemetrySample& s);
// Rule families at finish (burnin_performance_rules.cpp, burnin_health_rules.cpp); the GPU's
// health (counters, events, held conditions) is the health judge's (analysis/health).
void straggler_rule(const Context& ctx, std::vector<core::Finding>& out);
void clock_desync_rule(const Context& ctx, std::vector<core::Finding>& out);
void thermal_rule(const Context& ctx, std::vector<core::Finding>& out);
void power_rule(const Context& ctx, std::vector<core::Finding>& out);
void safety_stop_rule(const Context& ctx, std::vector<core::Finding>& out);
void miscompare_rule(const Context& ctx, std::vector<core::Finding>& out);
// The health judge's findings over the run (period view, worded for a burn-in or a history).
void health_rule(const Context& ctx, std::vector<core::Finding>& out);

// The link traffic's rules (traffic_rules.cpp), burn-ins only; traffic_coverage says what the
// traffic asked for could not verify.
void link_traffic_rule(const Context& ctx, std::vector<core::Finding>& out);
void traffic_straggler_rule(const Context& ctx, std::vector<core::Finding>& out);
void busbw_heat_rule(const Context& ctx, std::vector<core::Finding>& out);
void sdc_rule(const Context& ctx, std::vector<core::Finding>& out);
void traffic_coverage(const Context& ctx, std::vector<std::string>& unverified);

// One tick of the clock-desync rule: each loaded GPU's SM clock against the tick's median.
void desync_tick(std::map<int, GpuState>& series, double t_s, std::vector<std::pair<int, double>>& clocks,
                 const BurninThresholds& thresholds, double interval_s);

}  // namespace gpuvet::analysis::burnin
