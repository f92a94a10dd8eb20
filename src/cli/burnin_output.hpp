// Shared tail of `gpuvet burnin` and `gpuvet report --db`: judge a stored run, render it, return
// the exit code of its verdict; and the duration syntax both commands accept.
#pragma once

#include <string>

#include "analysis/burnin_judge.hpp"
#include "cli/app.hpp"
#include "core/error.hpp"
#include "core/telemetry.hpp"

namespace gpuvet::cli {

core::ExitCode render_burnin(const std::string& database, const std::string& command, const core::BurninRecord& record,
                             const analysis::BurninThresholds& thresholds, bool json, Streams& streams);

// "100ms", "90s", "15m", "4h", "1.5h" or plain seconds -> seconds (> 0). Usage error naming `option`.
core::Result<double> parse_duration(const std::string& text, const std::string& option);

}  // namespace gpuvet::cli
