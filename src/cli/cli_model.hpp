// A plain description of the CLI11 command tree (commands, options, positionals), read from the
// app itself so that completion scripts, the man page and help never drift from the parser.
#pragma once

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace gpuvet::cli {

struct CliOption {
  std::vector<std::string> names;  // "-o", "--out"
  std::string value_name;          // "FILE", "TEXT"; empty for a flag
  std::string description;
  std::vector<std::string> choices;  // fixed values offered by completion (e.g. --color)
};

struct CliCommand {
  std::string path;  // "" for gpuvet itself, "spec init" for a nested command
  std::string name;
  std::string description;
  bool hidden = false;  // not listed in --help (completion, man)
  std::vector<CliOption> options;
  std::vector<std::string> positionals;  // "FILE", "BUNDLE"
  std::vector<CliCommand> commands;
};

// The tree under `app`; option groups are folded into their command.
CliCommand describe_cli(const CLI::App& app);

// Every command of the tree, depth first, the root first.
std::vector<const CliCommand*> all_commands(const CliCommand& root);

}  // namespace gpuvet::cli
