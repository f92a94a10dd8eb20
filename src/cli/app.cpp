// Builds the CLI11 app, runs the chosen subcommand and maps errors to exit codes.
#include "cli/app.hpp"

#include <ostream>

#include "cli/commands.hpp"

namespace gpuvet::cli {

const char* const kExitCodeHelp =
    "Exit codes:\n"
    "  0  pass: the checks ran and nothing failed\n"
    "  1  fail: the machine has at least one failing finding\n"
    "  2  usage or bad input: wrong arguments, or a file that could not be parsed\n"
    "  3  incomplete: a required check could not run, so there is no verdict\n"
    "  4  environment: missing driver, library or permission on this machine\n"
    "  5  internal error in gpuvet (please report it)\n";

core::ExitCode run(const std::vector<std::string>& args, Streams streams) {
  CLI::App app{
      "gpuvet: is the multi-GPU server in front of you the one you paid for?\n"
      "Reads a live machine (NVML + sysfs), a vendor's pasted nvidia-smi output, or a simulated\n"
      "profile, and judges its GPUs, interconnect, NUMA layout and health.",
      "gpuvet"};
  app.footer(std::string("\n") + kExitCodeHelp);
  app.set_version_flag("--version", std::string("gpuvet ") + GPUVET_VERSION);
  app.require_subcommand(1);

  Action action;
  add_inspect_command(app, action);
  add_analyze_command(app, action);
  add_sim_command(app, action);
  add_findings_command(app, action);
  add_burnin_command(app, action);
  add_report_command(app, action);
  add_nccl_command(app, action);
  add_bench_command(app, action);
  add_spec_command(app, action);
  add_accept_command(app, action);
  add_verify_command(app, action);
  add_compare_command(app, action);

  std::vector<std::string> reversed(args.rbegin(), args.rend());
  try {
    app.parse(reversed);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e, streams.out, streams.err);
    return code == 0 ? core::ExitCode::pass : core::ExitCode::usage;
  }
  if (!action) {
    streams.err << "gpuvet: no action for this command\n";
    return core::ExitCode::usage;
  }
  auto result = action(streams);
  if (!result) {
    streams.err << "gpuvet: " << result.error().message << "\n";
    return core::exit_code_for(result.error().kind);
  }
  return result.value();
}

}  // namespace gpuvet::cli
