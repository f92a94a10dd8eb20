// Judges a machine, renders it (text or JSON) and returns the exit code for its verdict.
#pragma once

#include <string>

#include "analysis/judge.hpp"
#include "cli/app.hpp"
#include "core/machine.hpp"

namespace gpuvet::cli {

core::ExitCode judge_and_render(const std::string& command, const core::Machine& machine,
                                const analysis::Expectations& expect, bool json, Streams& streams,
                                const std::vector<core::CollectiveRun>& runs = {});

}  // namespace gpuvet::cli
