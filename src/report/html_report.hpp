// The acceptance report as one self-contained HTML page (report.html): no network, no scripts,
// no external fonts (a CSP meta forbids them), printable. Verdict and why at the top, the spec
// clauses, the topology graph, bandwidth heatmaps and burn-in charts when a stage measured
// them, and the findings with next steps. Pure.
#pragma once

#include <string>

#include "accept/accept_model.hpp"
#include "core/machine.hpp"

namespace gpuvet::report {

inline constexpr std::string_view kHtmlCsp = "default-src 'none'; style-src 'unsafe-inline'; img-src data:";

// `machine` may be null (a report read back from report.json): the topology section says so.
std::string render_accept_html(const accept::AcceptReport& report, const core::Machine* machine);

}  // namespace gpuvet::report
