// The Prometheus text exposition format 0.0.4 (prometheus/docs: exposition_formats.md).
#include "monitor/metrics_text_writer.hpp"

#include <cmath>

#include <fmt/format.h>

namespace gpuvet::monitor {

std::string escape_label_value(std::string_view value) {
  std::string out;
  out.reserve(value.size());
  for (char c : value) {
    switch (c) {
      case '\\': out += "\\\\"; break;
      case '"': out += "\\\""; break;
      case '\n': out += "\\n"; break;
      default: out += c;
    }
  }
  return out;
}

std::string escape_help(std::string_view help) {
  std::string out;
  out.reserve(help.size());
  for (char c : help) {
    switch (c) {
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      default: out += c;
    }
  }
  return out;
}

std::string format_sample_value(double value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "+Inf" : "-Inf";
  // fmt's default is the shortest decimal that reads back to the same double ("1e+20", "0.35").
  return fmt::format("{}", value);
}

MetricFamily::MetricFamily(std::string name, MetricType type, std::string help)
    : name_(std::move(name)), type_(type), help_(std::move(help)) {}

void MetricFamily::add(const MetricLabels& labels, double value) {
  add_line(labels, format_sample_value(value));
}

void MetricFamily::add(const MetricLabels& labels, std::uint64_t value) {
  // Exact integer text: a counter above 2^53 must not be rounded on its way out.
  add_line(labels, fmt::format("{}", value));
}

void MetricFamily::add_line(const MetricLabels& labels, const std::string& value) {
  std::string line = name_;
  if (!labels.empty()) {
    line += '{';
    bool first = true;
    for (const auto& label : labels) {
      if (!first) line += ',';
      first = false;
      line += label.name;
      line += "=\"";
      line += escape_label_value(label.value);
      line += '"';
    }
    line += '}';
  }
  line += ' ';
  line += value;
  lines_.push_back(std::move(line));
}

void MetricFamily::write_to(std::string& out) const {
  if (lines_.empty()) return;
  out += fmt::format("# HELP {} {}\n# TYPE {} {}\n", name_, escape_help(help_), name_,
                     type_ == MetricType::counter ? "counter" : "gauge");
  for (const auto& line : lines_) {
    out += line;
    out += '\n';
  }
}

}  // namespace gpuvet::monitor
