// gpuvet inspect: this machine (NVML + sysfs) or a simulated one, judged.
#include <ostream>

#include "backends/sim/simulator.hpp"
#include "cli/commands.hpp"
#include "cli/expect_options.hpp"
#include "cli/output.hpp"
#include "probes/live_machine.hpp"

namespace gpuvet::cli {

namespace {

struct InspectOptions {
  std::string sim_profile;
  std::vector<std::string> faults;
  bool json = false;
  std::string sysfs_root = "/";
  ExpectOptions expect;
};

core::Result<core::Machine> simulated_machine(const InspectOptions& options) {
  std::vector<sim::FaultSpec> faults;
  for (const auto& text : options.faults) {
    auto fault = sim::parse_fault(text);
    if (!fault) return fault.error();
    faults.push_back(std::move(fault).value());
  }
  return sim::simulate_machine(options.sim_profile, faults);
}

core::Result<core::ExitCode> run_inspect(const InspectOptions& options, Streams& streams) {
  auto expect = to_expectations(options.expect);
  if (!expect) return expect.error();
  if (options.sim_profile.empty() && !platform::FsRoot(options.sysfs_root).exists("/")) {
    return core::usage_error("--sysfs-root " + options.sysfs_root + ": no such directory");
  }
  if (!options.faults.empty() && options.sim_profile.empty()) {
    return core::usage_error("--fault needs --sim PROFILE: faults are overlays on a simulated machine");
  }
  auto machine = options.sim_profile.empty()
                     ? probes::read_live_machine({platform::FsRoot(options.sysfs_root), probes::default_nvml_library()})
                     : simulated_machine(options);
  if (!machine) {
    if (machine.error().kind != core::ErrorKind::environment) return machine.error();
    auto error = machine.error().with_context("cannot read this machine");
    error.message += "\n  hint: `gpuvet inspect --sim hgx-h100-8x` inspects the built-in simulated 8x H100 SXM server";
    return error;
  }
  return judge_and_render("inspect", *machine, *expect, options.json, streams);
}

}  // namespace

void add_inspect_command(CLI::App& app, Action& action) {
  auto options = std::make_shared<InspectOptions>();
  auto* cmd = app.add_subcommand("inspect", "Inventory, topology and findings for this machine or a simulated one");
  cmd->add_option("--sim", options->sim_profile, "Inspect a built-in simulated machine instead (see `gpuvet sim list`)");
  cmd->add_option("--fault", options->faults, "Fault overlay on the simulated machine, e.g. nvlink-down:gpu=3,link=2 (repeatable)");
  cmd->add_flag("--json", options->json, "Print one JSON object (schema gpuvet.machine/1) instead of text");
  cmd->add_option("--sysfs-root", options->sysfs_root, "Read sysfs under this root instead of / (captured trees)");
  add_expect_options(*cmd, options->expect);
  cmd->callback([options, &action] {
    action = [options](Streams& streams) { return run_inspect(*options, streams); };
  });
}

}  // namespace gpuvet::cli
