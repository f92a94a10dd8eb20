// describe_cli: walks the CLI11 app (commands, option groups, options) into CliCommand.
#include "cli/cli_model.hpp"

namespace gpuvet::cli {

namespace {

void add_options(const CLI::App& app, CliCommand& into) {
  for (const CLI::Option* opt : app.get_options()) {
    if (!opt->nonpositional()) {
      if (opt->get_positional()) into.positionals.push_back(opt->get_name(true));
      continue;
    }
    CliOption o;
    for (const auto& s : opt->get_snames()) o.names.push_back("-" + s);
    for (const auto& l : opt->get_lnames()) o.names.push_back("--" + l);
    if (opt->get_items_expected_max() > 0) o.value_name = opt->get_type_name().empty() ? "VALUE" : opt->get_type_name();
    o.description = opt->get_description();
    if (o.names.size() == 1 && o.names[0] == "--color") o.choices = {"auto", "always", "never"};
    into.options.push_back(std::move(o));
  }
  // Option groups are nameless sub-apps holding options of this command.
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
    if (sub->get_name().empty()) add_options(*sub, into);
  }
}

CliCommand describe(const CLI::App& app, const std::string& path) {
  CliCommand c;
  c.path = path;
  c.name = app.get_name();
  c.description = app.get_description();
  c.hidden = app.get_group().empty();
  add_options(app, c);
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
    if (sub->get_name().empty()) continue;
    c.commands.push_back(describe(*sub, path.empty() ? sub->get_name() : path + " " + sub->get_name()));
  }
  return c;
}

void collect(const CliCommand& c, std::vector<const CliCommand*>& out) {
  out.push_back(&c);
  for (const auto& sub : c.commands) collect(sub, out);
}

}  // namespace

CliCommand describe_cli(const CLI::App& app) {
  CliCommand root = describe(app, "");
  root.hidden = false;
  return root;
}

std::vector<const CliCommand*> all_commands(const CliCommand& root) {
  std::vector<const CliCommand*> out;
  collect(root, out);
  return out;
}

}  // namespace gpuvet::cli
