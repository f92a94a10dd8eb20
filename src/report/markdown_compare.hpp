// `gpuvet compare --markdown`: the comparison table as Markdown, differing rows in bold. Pure.
#pragma once

#include <string>

#include "accept/compare.hpp"

namespace gpuvet::report {

std::string render_compare_markdown(const accept::CompareTable& table);

}  // namespace gpuvet::report
