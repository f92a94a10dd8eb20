// `gpuvet compare --plan MODEL [job options] A/ B/ ...`: the acceptance bundles planned as offers
// for a model, with gpuvet plan's job options, arithmetic and renderers (plan_command.cpp).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "cli/commands.hpp"
#include "core/error.hpp"
#include "core/exit_code.hpp"

namespace gpuvet::cli {

// Plans `bundles` (directories, verified against their MANIFEST and, with a `key`, its signature)
// as offers for `model` (a preset, a config.json or a parameter count such as 70e9); `format` is
// "", "json", "markdown" or "html". Exit 0, or 1 when no bundle fits the model.
using BundlePlanRunner = std::function<core::Result<core::ExitCode>(const std::string& model, const std::vector<std::string>& bundles,
                                                                    const std::string& key, const std::string& format,
                                                                    Streams& streams)>;

// Registers plan's job options (--workload, --tokens, --seq-len, ..., --price NAME=USD) on `cmd`.
BundlePlanRunner add_bundle_plan_options(CLI::App* cmd);

}  // namespace gpuvet::cli
