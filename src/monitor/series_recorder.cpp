// The minute-by-minute record of /metrics as promtool input series (see series_recorder.hpp).
#include "monitor/series_recorder.hpp"

#include <charconv>
#include <cmath>

#include <fmt/format.h>

#include "monitor/metrics_exposition.hpp"

namespace gpuvet::monitor {

namespace {

// "name{a="1"}" with job and instance added: "name{job="gpuvet",instance="h",a="1"}".
std::string with_target(std::string_view series, const std::string& instance) {
  const std::string target = fmt::format("job=\"gpuvet\",instance=\"{}\"", instance);
  const auto brace = series.find('{');
  if (brace == std::string_view::npos) return fmt::format("{}{{{}}}", series, target);
  const bool empty = series.size() > brace + 1 && series[brace + 1] == '}';
  return fmt::format("{}{{{}{}{}", series.substr(0, brace), target, empty ? "" : ",", series.substr(brace + 1));
}

std::string value_text(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "+Inf" : "-Inf";
  return fmt::format("{}", v);
}

}  // namespace

SeriesRecorder::SeriesRecorder(std::string instance) : instance_(std::move(instance)) {}

void SeriesRecorder::on_snapshot(double t_s, const MonitorSnapshot& snapshot) {
  const auto minute = static_cast<std::int64_t>(std::floor(t_s / 60));
  if (minute <= last_minute_) return;
  last_minute_ = minute;
  if (minutes_ >= kMaxRecordedMinutes) {
    overflow_ = true;
    return;
  }
  record(render_metrics(snapshot, MetricsOptions{}));
}

void SeriesRecorder::record(const std::string& exposition) {
  std::size_t pos = 0;
  while (pos < exposition.size()) {
    auto end = exposition.find('\n', pos);
    if (end == std::string::npos) end = exposition.size();
    const std::string_view line(exposition.data() + pos, end - pos);
    pos = end + 1;
    if (line.empty() || line.front() == '#') continue;
    // "series value": the series ends at the last space (label values may hold spaces).
    const auto space = line.rfind(' ');
    if (space == std::string_view::npos) continue;
    double v = 0;
    const auto text = line.substr(space + 1);
    const auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || p != text.data() + text.size()) {
      if (text != "NaN") continue;
      v = std::nan("");
    }
    auto& values = series_[with_target(line.substr(0, space), instance_)];
    values.resize(minutes_);  // minutes before this series appeared: no sample
    values.push_back(v);
  }
  ++minutes_;
}

core::Result<std::string> SeriesRecorder::promtool_input_series() const {
  if (overflow_) {
    return core::usage_error(fmt::format("--record-series keeps at most {} minutes ({} h) of series: use a shorter --duration",
                                         kMaxRecordedMinutes, kMaxRecordedMinutes / 60));
  }
  std::string out = "# gpuvet monitor --record-series: /metrics once a minute of run time, as promtool input series.\n"
                    "interval: 1m\ninput_series:\n";
  for (const auto& [series, values] : series_) {
    std::string text;
    for (std::size_t i = 0; i < minutes_; ++i) {
      if (!text.empty()) text += ' ';
      text += i < values.size() && values[i] ? value_text(*values[i]) : "_";
    }
    std::string quoted;
    for (char c : series) quoted += c == '\'' ? std::string("''") : std::string(1, c);
    out += fmt::format("  - series: '{}'\n    values: '{}'\n", quoted, text);
  }
  return out;
}

}  // namespace gpuvet::monitor
