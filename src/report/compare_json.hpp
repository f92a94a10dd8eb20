// `gpuvet compare --json`: the comparison as one object (schema gpuvet.compare/1, docs/json.md):
// the bundles, the measured rows with each bundle's value, spec %, % of best and the winner, and
// the clause results. Pure.
#pragma once

#include <string>

#include "accept/compare.hpp"

namespace gpuvet::report {

inline constexpr std::string_view kCompareSchema = "gpuvet.compare/1";

std::string render_compare_json(const accept::CompareTable& table);

}  // namespace gpuvet::report
