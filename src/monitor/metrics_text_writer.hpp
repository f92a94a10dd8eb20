// The Prometheus text exposition format 0.0.4, written by hand: metric families (one HELP and one
// TYPE line each, then their samples), label values escaped, numbers as Prometheus parses them.
// Pure: builds a string, no I/O. Used by metrics_exposition.cpp for /metrics.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gpuvet::monitor {

// What /metrics answers with (Prometheus: a missing or wrong type fails the scrape since 3.0).
inline constexpr std::string_view kPrometheusContentType = "text/plain; version=0.0.4; charset=utf-8";

enum class MetricType { gauge, counter };

// One label of one sample. Values may hold any UTF-8; escape_label_value() makes them safe.
struct MetricLabel {
  std::string name;
  std::string value;
};
using MetricLabels = std::vector<MetricLabel>;

// Label value escaping of the text format: backslash, double quote and line feed.
std::string escape_label_value(std::string_view value);
// HELP text escaping: backslash and line feed.
std::string escape_help(std::string_view help);
// A sample value as Go's strconv.ParseFloat reads it: shortest round-trip decimal, NaN, +Inf, -Inf.
std::string format_sample_value(double value);

// One family: its samples are kept until the family is written, so the family's lines stay
// together whatever order the caller walks the GPUs in. A family with no sample is not written
// (an absent reading is never exported, not even as a bare HELP/TYPE header).
class MetricFamily {
 public:
  MetricFamily(std::string name, MetricType type, std::string help);

  void add(const MetricLabels& labels, double value);
  void add(const MetricLabels& labels, std::uint64_t value);
  [[nodiscard]] bool empty() const { return lines_.empty(); }
  [[nodiscard]] const std::string& name() const { return name_; }
  // Appends "# HELP", "# TYPE" and the samples to `out` (nothing when empty()).
  void write_to(std::string& out) const;

 private:
  void add_line(const MetricLabels& labels, const std::string& value);

  std::string name_;
  MetricType type_;
  std::string help_;
  std::vector<std::string> lines_;
};

}  // namespace gpuvet::monitor
