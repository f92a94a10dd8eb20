// Shared tail of `gpuvet burnin` and `gpuvet report --db`: judge a stored run in one streaming
// pass over the database, render it, return the exit code of its verdict; and the duration syntax
// both commands accept.
#pragma once

#include <functional>
#include <string>

#include "analysis/burnin_judge.hpp"
#include "cli/app.hpp"
#include "core/error.hpp"
#include "core/telemetry.hpp"
#include "telemetry/telemetry_store.hpp"

namespace gpuvet::cli {

// How a stored run is read: telemetry::read_burnin of a file, or a store's read_back.
using BurninRead = std::function<core::Result<core::BurninRecord>(const telemetry::HeaderSink&, const telemetry::SampleSink&)>;

// Reads the run through `read`, feeding the streaming judge, and renders the report.
core::Result<core::ExitCode> render_burnin(const std::string& database, const std::string& command, const BurninRead& read,
                                           const analysis::BurninThresholds& thresholds, bool json, Streams& streams);

// "100ms", "90s", "15m", "4h", "1.5h" or plain seconds -> seconds (> 0). Usage error naming `option`.
core::Result<double> parse_duration(const std::string& text, const std::string& option);

}  // namespace gpuvet::cli
