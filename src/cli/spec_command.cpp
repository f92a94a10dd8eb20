// gpuvet spec list | init --template NAME [-o FILE] | check FILE: the acceptance spec templates
// and the spec validator (docs/spec.md).
#include <filesystem>
#include <fstream>
#include <ostream>

#include <fmt/format.h>

#include "accept/clauses.hpp"
#include "catalog/gpu_catalog.hpp"
#include "cli/commands.hpp"
#include "platform/user_file.hpp"
#include "spec/spec.hpp"
#include "spec/spec_templates.hpp"
#include "report/text_wrap.hpp"

namespace gpuvet::cli {

namespace {

struct SpecOptions {
  std::string template_name;
  std::string output;
  bool force = false;
  std::string file;
};

core::Result<core::ExitCode> run_list(Streams& streams) {
  streams.out << "Spec templates (gpuvet spec init --template NAME)\n";
  for (const auto& t : spec::list_templates()) streams.out << report::wrap_line(fmt::format("  {:<14} {}", t.name, t.description), 17);
  return core::ExitCode::pass;
}

core::Result<core::ExitCode> run_init(const SpecOptions& o, Streams& streams) {
  auto text = spec::template_text(o.template_name);
  if (!text) return text.error();
  if (o.output.empty() || o.output == "-") {
    streams.out << *text;
    return core::ExitCode::pass;
  }
  std::error_code ec;
  if (std::filesystem::exists(o.output, ec) && !o.force) {
    return core::usage_error(o.output + " exists (use --force to overwrite it)");
  }
  std::ofstream out(o.output, std::ios::binary | std::ios::trunc);
  out << *text;
  out.flush();
  if (!out) return core::environment_error("cannot write " + o.output);
  streams.err << report::wrap_line(
      fmt::format("wrote {} (template {}); check it with `gpuvet spec check {}`", o.output, o.template_name, o.output), 2);
  return core::ExitCode::pass;
}

core::Result<core::ExitCode> run_check(const SpecOptions& o, Streams& streams) {
  auto text = platform::read_user_file(o.file);
  if (!text) return text.error();
  auto parsed = spec::parse_spec(*text, o.file, catalog::gpu_catalog());
  if (!parsed) return parsed.error();
  std::vector<accept::ClauseResult> clauses;
  for (auto fn : {accept::inventory_clauses, accept::topology_clauses, accept::numa_clauses, accept::memory_clauses,
                  accept::bandwidth_clauses, accept::vram_clauses, accept::collectives_clauses, accept::burnin_clauses}) {
    auto more = fn(*parsed);
    clauses.insert(clauses.end(), more.begin(), more.end());
  }
  streams.out << fmt::format("{}: valid spec{}, {} clauses\n", o.file,
                             parsed->name.empty() ? "" : " '" + parsed->name + "'", clauses.size());
  for (const auto& c : clauses) {
    streams.out << report::wrap_line(fmt::format("  {:<28} {:<12} {}  [{}]", c.id, c.stage, c.expected, c.source), 44);
  }
  return core::ExitCode::pass;
}

}  // namespace

void add_spec_command(CLI::App& app, Action& action) {
  auto o = std::make_shared<SpecOptions>();
  auto* cmd = app.add_subcommand("spec", "Acceptance specs: templates for common offers, and the validator");
  cmd->require_subcommand(1);
  auto* list = cmd->add_subcommand("list", "List the spec templates");
  list->callback([&action] { action = [](Streams& s) { return run_list(s); }; });
  auto* init = cmd->add_subcommand("init", "Print a spec template (or write it with -o FILE)");
  init->add_option("--template", o->template_name, "Template name (see `gpuvet spec list`)")->required();
  init->add_option("-o,--output", o->output, "Write the spec to FILE instead of standard output");
  init->add_flag("--force", o->force, "Overwrite FILE if it exists");
  init->callback([o, &action] { action = [o](Streams& s) { return run_init(*o, s); }; });
  auto* check = cmd->add_subcommand("check", "Validate a spec and list the clauses it states (errors name the line)");
  check->add_option("FILE", o->file, "The spec (YAML)")->required();
  check->callback([o, &action] { action = [o](Streams& s) { return run_check(*o, s); }; });
}

}  // namespace gpuvet::cli
