// gpuvet sim list: the built-in machine profiles and fault overlays.
#include <fmt/format.h>

#include <nlohmann/json.hpp>
#include <ostream>

#include "backends/sim/simulator.hpp"
#include "cli/commands.hpp"
#include "report/text_wrap.hpp"

namespace gpuvet::cli {

namespace {

core::Result<core::ExitCode> run_sim_list(bool json, Streams& streams) {
  const auto profiles = sim::list_profiles();
  const auto faults = sim::list_faults();
  if (json) {
    nlohmann::ordered_json j;
    j["profiles"] = nlohmann::ordered_json::array();
    for (const auto& p : profiles) {
      j["profiles"].push_back({{"name", p.name}, {"gpu_count", p.gpu_count}, {"gpu_model", p.gpu_model},
                               {"description", p.description}, {"default", p.name == sim::kDefaultProfile}});
    }
    j["faults"] = nlohmann::ordered_json::array();
    for (const auto& f : faults) {
      j["faults"].push_back({{"name", f.name}, {"usage", f.usage}, {"description", f.description}});
    }
    streams.out << j.dump(2) << "\n";
    return core::ExitCode::pass;
  }
  streams.out << "Profiles (--sim NAME)\n";
  for (const auto& p : profiles) {
    streams.out << report::wrap_line(fmt::format("  {:<22} {}{}", p.name, p.description,
                                                 p.name == sim::kDefaultProfile ? " [default]" : ""),
                                     25);
  }
  streams.out << "\nFaults (--fault NAME:key=value,...; repeatable)\n";
  for (const auto& f : faults) {
    streams.out << report::wrap_line(fmt::format("  {:<46} {}", f.usage, f.description), 49);
  }
  return core::ExitCode::pass;
}

}  // namespace

void add_sim_command(CLI::App& app, Action& action) {
  auto* sim = app.add_subcommand("sim", "The simulated backend: machine profiles and fault overlays");
  sim->require_subcommand(1);
  auto json = std::make_shared<bool>(false);
  auto* list = sim->add_subcommand("list", "List the built-in profiles and faults");
  list->add_flag("--json", *json, "Print JSON");
  list->callback([json, &action] {
    action = [json](Streams& streams) { return run_sim_list(*json, streams); };
  });
}

}  // namespace gpuvet::cli
