// Commands about gpuvet itself: `help COMMAND` (listed; the words are rewritten to
// `COMMAND --help` before parsing), and the hidden `completion bash|zsh` and `man`, generated
// from the app they are registered in so they never drift from the parser.
#include <fmt/format.h>

#include <ostream>

#include "cli/commands.hpp"
#include "cli/completion.hpp"
#include "cli/manpage.hpp"

namespace gpuvet::cli {

void add_help_command(CLI::App& app, Action& action) {
  auto* cmd = app.add_subcommand("help", "Show the help of a command: `gpuvet help accept` is `gpuvet accept --help`");
  cmd->add_option("command", "The command (and subcommand) to explain")->expected(0, 2);
  cmd->callback([&action, &app] {
    // Reached only when the words were not rewritten (never in practice): show the overview.
    action = [&app](Streams& streams) -> core::Result<core::ExitCode> {
      streams.out << app.help();
      return core::ExitCode::pass;
    };
  });
}

void add_completion_command(CLI::App& app, Action& action) {
  auto shell = std::make_shared<std::string>();
  auto* cmd = app.add_subcommand("completion", "Print the shell completion script (bash or zsh); see README for installing it");
  cmd->group("");  // hidden from --help
  cmd->add_option("shell", *shell, "bash or zsh")->required()->check(CLI::IsMember({"bash", "zsh"}));
  cmd->callback([&action, &app, shell] {
    action = [&app, shell](Streams& streams) -> core::Result<core::ExitCode> {
      const auto tree = describe_cli(app);
      streams.out << (*shell == "bash" ? bash_completion(tree) : zsh_completion(tree));
      return core::ExitCode::pass;
    };
  });
}

void add_man_command(CLI::App& app, Action& action) {
  auto* cmd = app.add_subcommand("man", "Print the gpuvet(1) man page (roff); see README for installing it");
  cmd->group("");  // hidden from --help
  cmd->callback([&action, &app] {
    action = [&app](Streams& streams) -> core::Result<core::ExitCode> {
      streams.out << man_page(describe_cli(app), GPUVET_VERSION, kExitCodeHelp);
      return core::ExitCode::pass;
    };
  });
}

}  // namespace gpuvet::cli
