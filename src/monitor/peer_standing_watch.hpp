// hotter_than_peers and slower_than_peers in the daemon: the definition `gpuvet trend` reports
// (analysis::judge_trend's peer rule: each GPU against the median of the GPUs at its load, hotter
// or at a lower SM clock for hours) run over the last kPeerStandingWindow of 15-minute buckets each
// time a bucket closes, so the daemon, the weekly report and the rules file name the same cards.
// Per GPU a fixed ring of buckets: memory does not grow with uptime. Part of the alert evaluator.
#pragma once

#include <cstdint>
#include <map>
#include <utility>
#include <vector>

#include "core/telemetry.hpp"
#include "monitor/alert_windows.hpp"
#include "monitor/monitor_snapshot.hpp"

namespace gpuvet::monitor {

class PeerStandingWatch {
 public:
  PeerStandingWatch(const std::vector<int>& gpus, double interval_s);
  void on_sample(const core::TelemetrySample& sample);
  // Judges again when the tick at wall time `unix_ms` closed a bucket.
  void end_tick(std::int64_t unix_ms);
  void alerts_for(int gpu, std::vector<MonitorAlert>& out) const;
  [[nodiscard]] std::size_t retained_objects() const;

 private:
  struct Bucket {
    std::int64_t index = -1;
    std::size_t samples = 0;
    double temp_sum = 0, clock_sum = 0, util_sum = 0, power_sum = 0;
    std::size_t temp_n = 0, clock_n = 0, util_n = 0, power_n = 0;
  };
  void judge(std::int64_t closed_before);

  double interval_s_;
  std::map<int, std::vector<Bucket>> rings_;
  std::int64_t judged_through_ = -1;                      // newest bucket index judged
  std::map<std::pair<std::string, int>, MonitorAlert> firing_;  // (code, gpu) from the last judgement
};

}  // namespace gpuvet::monitor
