// Renderers of gpuvet plan (plan::Plan -> bytes): terminal text, JSON (schema gpuvet.plan/1,
// docs/json.md), Markdown, and a self-contained HTML page with an inline-SVG bar chart of each
// offer's step-time breakdown. Pure; called by cli/plan_command.cpp.
#pragma once

#include <string>

#include "plan/plan.hpp"

namespace gpuvet::report {

std::string render_plan_text(const plan::Plan& plan);
std::string render_plan_json(const plan::Plan& plan);
std::string render_plan_markdown(const plan::Plan& plan);
std::string render_plan_html(const plan::Plan& plan);

// One horizontal stacked bar per offer: compute, pipeline bubble, and exposed tensor-parallel,
// pipeline, expert-parallel and data-parallel communication, in seconds per step; well-formed XML.
std::string svg_step_breakdown(const plan::Plan& plan);

// Shared words: "12.3 GiB", "n/a" for absent money, "41 %".
std::string plan_money(const std::optional<double>& value);
std::string plan_percent(double share);

}  // namespace gpuvet::report
