// --color / NO_COLOR, `help COMMAND` and unknown-command suggestions.
#include "cli/command_line.hpp"

#include <fmt/format.h>

#include "cli/suggest.hpp"
#include "report/text_wrap.hpp"

namespace gpuvet::cli {

namespace {

core::Error usage(std::string message) { return core::usage_error(std::move(message)); }

std::vector<std::string> command_names(const CLI::App& app) {
  std::vector<std::string> names;
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
    if (!sub->get_name().empty()) names.push_back(sub->get_name());
  }
  return names;
}

const CLI::App* find_command(const CLI::App& app, const std::string& name) {
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
    if (!sub->get_name().empty() && sub->get_name() == name) return sub;
  }
  return nullptr;
}

// Global options that take a value, so their value is not read as a command.
bool takes_value(const CLI::App& app, const std::string& word) {
  if (word.rfind("--", 0) != 0 || word.find('=') != std::string::npos) return false;
  for (const CLI::Option* opt : app.get_options()) {
    if (opt->check_lname(word.substr(2))) return opt->get_items_expected_max() > 0;
  }
  return false;
}

bool takes_positionals(const CLI::App& app) {
  for (const CLI::Option* opt : app.get_options()) {
    if (opt->get_positional()) return true;
  }
  return false;
}

std::string unknown(const CLI::App& parent, const std::string& prefix, const std::string& word) {
  const auto names = command_names(parent);
  std::string message = fmt::format("unknown command '{}{}'.", prefix, word);
  if (const auto near = closest_name(word, names)) return message + fmt::format(" Did you mean '{}{}'?", prefix, *near);
  std::string list;
  for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
  return message + fmt::format(" Commands: {} (gpuvet {}--help)", list, prefix);
}

}  // namespace

core::Result<bool> take_color_option(std::vector<std::string>& args, bool out_is_terminal,
                                     const std::optional<std::string>& no_color) {
  std::string when = "auto";
  std::vector<std::string> kept;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--") {
      kept.insert(kept.end(), args.begin() + static_cast<long>(i), args.end());
      break;
    }
    if (a == "--color") {
      if (i + 1 >= args.size()) return usage("--color: expected auto, always or never");
      when = args[++i];
    } else if (a.rfind("--color=", 0) == 0) {
      when = a.substr(8);
    } else {
      kept.push_back(a);
      continue;
    }
    if (when != "auto" && when != "always" && when != "never") {
      return usage(fmt::format("--color: expected auto, always or never, got '{}'", when));
    }
  }
  args = std::move(kept);
  if (when == "always") return true;
  if (when == "never") return false;
  return out_is_terminal && !(no_color && !no_color->empty());
}

core::Result<std::vector<std::string>> resolve_command_words(const CLI::App& app, std::vector<std::string> args) {
  // The first word that is no option (nor an option's value) of gpuvet itself.
  size_t first = 0;
  while (first < args.size() && args[first].rfind("-", 0) == 0) {
    if (args[first] == "--") return args;
    first += takes_value(app, args[first]) ? 2 : 1;
  }
  if (first >= args.size()) return args;
  if (args[first] == "help" && first + 1 < args.size() && args[first + 1].rfind("-", 0) == 0) return args;  // help --help
  if (args[first] == "help") {
    std::vector<std::string> rewritten(args.begin(), args.begin() + static_cast<long>(first));
    rewritten.insert(rewritten.end(), args.begin() + static_cast<long>(first) + 1, args.end());
    rewritten.push_back("--help");
    args = std::move(rewritten);
    if (first >= args.size() - 1) return args;  // plain `gpuvet help`
  }
  // The command, then nested commands for as long as the command has some.
  const CLI::App* parent = &app;
  std::string prefix;
  for (size_t i = first; i < args.size(); ++i) {
    const std::string& word = args[i];
    if (word.rfind("-", 0) == 0) break;
    const CLI::App* command = find_command(*parent, word);
    if (command == nullptr) {
      // A word where a command that has nested commands takes no positional argument is a mistyped one
      // (`monitor rulez`), even when the command also runs without one.
      if (parent == &app || parent->get_require_subcommand_min() > 0 || !takes_positionals(*parent)) {
        return usage(unknown(*parent, prefix, word));
      }
      break;
    }
    prefix += word + " ";
    parent = command;
    if (command_names(*parent).empty()) break;
  }
  return args;
}

std::string FittedFormatter::make_help(const CLI::App* app, std::string name, CLI::AppFormatMode mode) const {
  return report::fit_lines(CLI::Formatter::make_help(app, std::move(name), mode));
}

}  // namespace gpuvet::cli
