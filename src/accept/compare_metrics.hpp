// `gpuvet compare`'s measured rows: the absolute numbers of several accept reports side by side
// (GPUs, interconnect class, host and peer copy GB/s, busbw per op and GPU-set size, scaling,
// burn-in TFLOP/s, temperature, throttled time), each against its own spec and the best of the
// set, and which offer wins the row and why. Pure: reports in, rows out.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "accept/accept_model.hpp"

namespace gpuvet::accept {

// Which way a row is better; none: listed for reference, no winner.
enum class Better { higher, lower, none };

struct MetricCell {
  std::optional<double> value;           // absent: not measured by this bundle (never a loss)
  std::string text;                      // words for rows that are words ("8x H100 SXM5 80GB")
  std::optional<double> spec_target;     // what this bundle's own spec asked for (same unit)
  std::optional<double> percent_of_spec; // value / spec_target * 100
  std::optional<double> percent_of_best; // value / best of the set * 100
  bool best = false;                     // the best (or tied for best) value of the row
};

struct MetricRow {
  std::string id;       // stable: "bandwidth.p2p", "collectives.all_reduce.all", "burnin.tflops.slowest", ...
  std::string title;    // "Peer copy, lowest GPU pair"
  std::string unit;     // "GB/s", "%", "TFLOP/s", "°C"
  Better better = Better::higher;
  std::vector<MetricCell> cells;  // one per report
  std::string winner;   // the label of the winner, "tie", or "" (one or no value, or not ranked)
  std::string why;      // "vendor-a: 481.0 GB/s, 37 % above vendor-b (351.7); higher is better"
};

// Two values closer than this (relative to the better one) tie: run-to-run noise of a copy or
// collective measurement is a few percent (docs/measurement.md).
inline constexpr double kTieFraction = 0.02;

std::vector<MetricRow> compare_metrics(const std::vector<std::pair<std::string, AcceptReport>>& reports);

// "481.0", "not measured", or the row's words.
std::string metric_value_text(const MetricRow& row, const MetricCell& cell);
// "481.0 (spec 100 %, best)", "351.7 (spec 96 %, 73 % of best)", "not measured".
std::string metric_cell_text(const MetricRow& row, const MetricCell& cell);
std::string_view to_string(Better better);

}  // namespace gpuvet::accept
