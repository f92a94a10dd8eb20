// Builds the CLI11 app, runs the chosen subcommand and maps errors to exit codes.
#include "cli/app.hpp"

#include <fmt/format.h>

#include <ostream>

#include "backends/cuda/cuda_backends.hpp"
#include "backends/nvml/nvml_library.hpp"
#include "backends/nvml/nvml_reader.hpp"
#include "cli/command_line.hpp"
#include "cli/commands.hpp"
#include "platform/environment.hpp"

namespace gpuvet::cli {
namespace {

// NVML's own view: the driver release it reports and its CUDA version. nvmlInit is cheap; nothing
// else is read.
std::string nvml_found() {
  const std::string name = nvml::default_library_name();
  auto lib = nvml::NvmlLibrary::load(name);
  if (!lib) return "not found (" + lib.error().message + ")";
  const auto& api = (*lib)->api();
  if (const auto rc = api.init(); rc != 0) return fmt::format("{}: nvmlInit failed: {}", name, (*lib)->describe(rc));
  char release[96] = {};
  int cuda = 0;
  std::string out = name;
  if (api.system_get_driver_version != nullptr && api.system_get_driver_version(release, sizeof release - 1) == 0) {
    out = fmt::format("driver {}", release);
    if (api.system_get_cuda_driver_version != nullptr && api.system_get_cuda_driver_version(&cuda) == 0) {
      out += fmt::format(" (CUDA {}.{})", cuda / 1000, cuda % 1000 / 10);
    }
    out += ", " + name;
  }
  api.shutdown();
  return out;
}

// `gpuvet --version`: what the binary was built with, then what this machine offers. Never fails
// and initialises no GPU: libraries are opened and asked their versions, nothing more.
std::string version_text() {
  std::string out = std::string("gpuvet ") + GPUVET_VERSION + "\nBuilt with:\n";
  auto add = [&out](const std::string& component, const std::string& detail) {
    out += fmt::format("  {:<16} {}\n", component, detail);
  };
  for (const auto& line : cuda::build_versions()) add(line.component, line.detail);
  add("NVML", "loaded at run time (libnvidia-ml.so.1); ABI declared by hand from nvml.h (NVML_API_VERSION 13)");
  out += "On this machine:\n";
  const auto found = cuda::runtime_versions();
  for (const auto& line : found) {
    add(line.component, line.detail);
    if (line.component == "CUDA driver") add("NVML", nvml_found());
  }
  out.pop_back();  // CLI11 ends the text with a newline of its own
  return out;
}

}  // namespace

const char* const kExitCodeHelp =
    "Exit codes:\n"
    "  0  pass: the checks ran and nothing failed\n"
    "  1  fail: the machine has at least one failing finding\n"
    "  2  usage or bad input: wrong arguments, or a file that could not be parsed\n"
    "  3  incomplete: a required check could not run, so there is no verdict\n"
    "  4  environment: missing driver, library or permission on this machine\n"
    "  5  internal error in gpuvet (please report it)\n";

core::ExitCode run(const std::vector<std::string>& given, Streams streams) {
  std::vector<std::string> args = given;
  const auto color = take_color_option(args, streams.out_is_terminal, platform::env("NO_COLOR"));
  if (!color) {
    streams.err << "gpuvet: " << color.error().message << "\n";
    return core::ExitCode::usage;
  }
  streams.color = *color;
  CLI::App app{
      "gpuvet: is the multi-GPU server in front of you the one you paid for?\n"
      "Reads a live machine (NVML + sysfs), a vendor's pasted nvidia-smi output, or a simulated\n"
      "profile, and judges its GPUs, interconnect, NUMA layout and health.",
      "gpuvet"};
  app.footer(std::string("\n") + kExitCodeHelp);
  app.set_version_flag("--version", std::function<std::string()>(version_text),
                       "Show the version, what gpuvet was built with and the CUDA, NVML, NCCL and cuBLAS libraries found");
  app.require_subcommand(1);
  app.formatter(std::make_shared<FittedFormatter>());
  // Taken out of the words before parsing (anywhere on the line); registered for help and completion.
  app.add_option("--color", "ANSI colour: auto (on a terminal, unless NO_COLOR is set), always or never")
      ->type_name("WHEN");

  Action action;
  add_inspect_command(app, action);
  add_analyze_command(app, action);
  add_collect_command(app, action);
  add_sim_command(app, action);
  add_findings_command(app, action);
  add_burnin_command(app, action);
  add_report_command(app, action);
  add_trend_command(app, action);
  add_nccl_command(app, action);
  add_bench_command(app, action);
  add_monitor_command(app, action);
  add_spec_command(app, action);
  add_accept_command(app, action);
  add_verify_command(app, action);
  add_compare_command(app, action);
  add_plan_command(app, action);
  add_keygen_command(app, action);
  add_help_command(app, action);
  add_completion_command(app, action);
  add_man_command(app, action);

  const auto words = resolve_command_words(app, args);
  if (!words) {
    streams.err << "gpuvet: " << words.error().message << "\n";
    return core::ExitCode::usage;
  }
  std::vector<std::string> reversed(words->rbegin(), words->rend());
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
