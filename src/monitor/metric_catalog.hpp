// The metric table of /metrics: every family the serializer can write, with its type, unit,
// labels, HELP text, where its value comes from (NVML call or the daemon) and its dcgm-exporter
// equivalent. metrics_native.cpp, metrics_dcgm.cpp and metrics_exposition.cpp take each family's
// name, type and HELP from here (metric_family), and docs/metrics.md is rendered from it
// (`gpuvet monitor metrics --markdown`), so the docs cannot drift from what is served. Pure.
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "monitor/metrics_text_writer.hpp"

namespace gpuvet::monitor {

// Which part of /metrics a family belongs to.
enum class MetricSet {
  native,  // gpuvet_* per GPU, always written
  dcgm,    // dcgm-exporter's names and labels, only with --dcgm-names
  daemon,  // the alerts and the daemon's own health and cost
};

struct MetricInfo {
  std::string_view name;
  MetricType type;
  MetricSet set;
  std::string_view unit;        // what one unit of the value is
  std::string_view labels;      // label names in the order written ("" for none)
  std::string_view help;        // the # HELP text
  std::string_view source;      // the NVML call (or the daemon) the value comes from
  std::string_view equivalent;  // native rows: the dcgm-exporter name; dcgm rows: the gpuvet_* name
};

// Every family, in the order /metrics writes them.
std::span<const MetricInfo> metric_catalog();
// The entry for `name`, or nullptr.
const MetricInfo* find_metric_info(std::string_view name);
// An empty family named, typed and described by the catalogue. A name not in the catalogue is a
// programming error: std::logic_error (the endpoint tests render every family).
MetricFamily metric_family(std::string_view name);
// docs/metrics.md.
std::string render_metric_catalog_markdown();

}  // namespace gpuvet::monitor
