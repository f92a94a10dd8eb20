// `gpuvet monitor --record-series FILE`: the series /metrics exported, once a minute of run time,
// written as the `input_series` of a promtool rules test (interval 1m; `_` where a series had no
// sample), so any alerting rules (gpuvet's own `monitor rules`, or a team's) can be unit-tested
// with `promtool test rules` against a simulated fault. Every series gets job="gpuvet" and
// instance="<host>", as a scrape would add them. Memory: one value per series and minute,
// bounded by kMaxRecordedMinutes. Called by the daemon's thread only.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "monitor/monitor_snapshot.hpp"

namespace gpuvet::monitor {

// A day of minutes: promtool reads the whole file into memory, and so does the recorder.
inline constexpr std::size_t kMaxRecordedMinutes = 24 * 60;

class SeriesRecorder {
 public:
  explicit SeriesRecorder(std::string instance);
  // The snapshot published at run time t_s: recorded when it is the first of its minute.
  void on_snapshot(double t_s, const MonitorSnapshot& snapshot);
  // The promtool test file's `interval` and `input_series`; nullopt and a reason past the limit.
  [[nodiscard]] core::Result<std::string> promtool_input_series() const;
  [[nodiscard]] std::size_t minutes() const { return minutes_; }

 private:
  void record(const std::string& exposition);
  std::string instance_;
  std::int64_t last_minute_ = -1;
  std::size_t minutes_ = 0;
  bool overflow_ = false;
  std::map<std::string, std::vector<std::optional<double>>> series_;  // series text -> value per minute
};

}  // namespace gpuvet::monitor
