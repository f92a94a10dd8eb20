// Subcommand registration. Each add_* adds its subcommand to the app and returns the
// action to run if that subcommand was chosen.
#pragma once

#include <functional>
#include <memory>

#include <CLI/CLI.hpp>

#include "cli/app.hpp"
#include "core/error.hpp"

namespace gpuvet::cli {

using Action = std::function<core::Result<core::ExitCode>(Streams&)>;

void add_inspect_command(CLI::App& app, Action& action);
void add_analyze_command(CLI::App& app, Action& action);
void add_collect_command(CLI::App& app, Action& action);
void add_sim_command(CLI::App& app, Action& action);
void add_findings_command(CLI::App& app, Action& action);
void add_burnin_command(CLI::App& app, Action& action);
void add_report_command(CLI::App& app, Action& action);
void add_nccl_command(CLI::App& app, Action& action);
void add_trend_command(CLI::App& app, Action& action);
void add_bench_command(CLI::App& app, Action& action);
void add_spec_command(CLI::App& app, Action& action);
void add_accept_command(CLI::App& app, Action& action);
void add_verify_command(CLI::App& app, Action& action);
void add_compare_command(CLI::App& app, Action& action);
void add_plan_command(CLI::App& app, Action& action);
void add_keygen_command(CLI::App& app, Action& action);

void add_monitor_command(CLI::App& app, Action& action);
// About gpuvet itself (meta_commands.cpp): help COMMAND, and the hidden completion and man.
void add_help_command(CLI::App& app, Action& action);
void add_completion_command(CLI::App& app, Action& action);
void add_man_command(CLI::App& app, Action& action);
}  // namespace gpuvet::cli
