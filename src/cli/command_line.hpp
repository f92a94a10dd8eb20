// CLI-wide handling of the words before CLI11 parses them: the global --color option (with
// NO_COLOR), `gpuvet help COMMAND`, and unknown commands with a "did you mean" suggestion.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "core/error.hpp"

namespace gpuvet::cli {

// Removes every `--color WHEN` / `--color=WHEN` from `args` (up to a `--`) and decides whether
// to write ANSI colour: `always` yes, `never` no, `auto` (the default) only on a terminal and
// when NO_COLOR is unset or empty (https://no-color.org). A bad WHEN is a usage error.
core::Result<bool> take_color_option(std::vector<std::string>& args, bool out_is_terminal,
                                     const std::optional<std::string>& no_color);

// `help` -> `--help`; `help COMMAND [SUB]` -> `COMMAND [SUB] --help`. Then the first word that
// is not an option must name a command of `app`: otherwise a usage error "unknown command 'X'",
// with "Did you mean 'Y'?" when one is close by edit distance. Nested commands are checked the
// same way (`spec innit`).
core::Result<std::vector<std::string>> resolve_command_words(const CLI::App& app, std::vector<std::string> args);

// CLI11's help text with every line fitted to 120 columns (descriptions wrap under themselves).
class FittedFormatter : public CLI::Formatter {
 public:
  std::string make_help(const CLI::App* app, std::string name, CLI::AppFormatMode mode) const override;
};

}  // namespace gpuvet::cli
