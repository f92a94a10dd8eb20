// `gpuvet compare --html`: the comparison table as one self-contained HTML page (same CSP as
// report.html), differing rows highlighted. Pure.
#pragma once

#include <string>

#include "accept/compare.hpp"

namespace gpuvet::report {

std::string render_compare_html(const accept::CompareTable& table);

}  // namespace gpuvet::report
