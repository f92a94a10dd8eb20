// A report.json read back as evidence (compare, plan --offer, trend and monitor --baseline): its
// schema, then its numbers: finite, not negative, below the physical ceiling of their unit (GB/s:
// parsers/bandwidth_plausibility.hpp, as `analyze` reads logs), and whole where they count
// something. Pure: a hand-edited busbw of 1e308 never wins a row. Fuzzed by bundle_report_fuzzer.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "accept/accept_model.hpp"
#include "core/error.hpp"

namespace gpuvet::bundle {

// The highest value of `unit` any reader believes: "GB/s" 10,000 (parsers::kMaxPlausibleGbps),
// "GiB" 16,384 (per GPU), "TFLOP/s" 100,000, "°C" 200, "MHz" 100,000, "W" 100,000, "%" 1,000, "h"
// 100,000, "" (a count: GPUs, ports) 1,000,000; any other unit 1e12.
double unit_ceiling(std::string_view unit);

// Most GPUs a report may name (a GPU index is below this).
inline constexpr int kMaxReportGpus = 4096;

// The first implausible number of `report` (a clause's measured or target, a heatmap cell, a chart
// point, span or event time, a stage's seconds, a GPU index), as a bad_input Error naming
// `file_name` and the field the way report.json spells it: "b/report.json: stages[6].clauses[0]
// .measured (collectives.all_reduce.all): 1e+308 is above 10000 GB/s, ...". nullopt when all hold.
std::optional<core::Error> check_report_numbers(const accept::AcceptReport& report, const std::string& file_name);

// report.json text checked against its schema (accept::check_report_schema), parsed, and its
// numbers checked as above. Errors (bad_input) name `file_name` and the field.
core::Result<accept::AcceptReport> parse_checked_report(std::string_view text, const std::string& file_name);

}  // namespace gpuvet::bundle
