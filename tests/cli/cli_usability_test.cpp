// CLI-wide usability: `help COMMAND`, "did you mean" for mistyped commands, --color and
// NO_COLOR, and the completion scripts and man page generated from the CLI definition.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include <unistd.h>

#include "cli/app.hpp"
#include "cli_runner.hpp"

using gpuvet::testing::run_cli;

namespace {

namespace fs = std::filesystem;

// A run with stdout a terminal, as main() would see it, and NO_COLOR as given (nullptr: unset).
gpuvet::testing::CliRun run_on_terminal(const std::vector<std::string>& args, const char* no_color) {
  if (no_color == nullptr) ::unsetenv("NO_COLOR");
  else ::setenv("NO_COLOR", no_color, 1);
  std::ostringstream out, err;
  const auto code = gpuvet::cli::run(args, {out, err, true});
  ::unsetenv("NO_COLOR");
  return {static_cast<int>(code), out.str(), err.str()};
}

bool has_escape(const std::string& s) { return s.find("\x1b[") != std::string::npos; }

const std::vector<std::string> kFailingMachine = {"inspect", "--sim", "hgx-h100-8x", "--fault", "gpu-missing:gpu=2",
                                                  "--expect-gpus", "8"};

// The commands `gpuvet --help` lists and, for each, the options its own --help lists: the test's
// independent view of the CLI, to hold completion and man page against.
std::map<std::string, std::vector<std::string>> commands_from_help() {
  std::map<std::string, std::vector<std::string>> out;
  auto options_of = [](const std::string& help) {
    std::vector<std::string> names;
    std::istringstream lines(help);
    for (std::string line; std::getline(lines, line);) {
      if (line.rfind("  -", 0) != 0) continue;
      std::istringstream words(line.substr(2));
      std::string first;
      words >> first;  // "-h,--help" or "--sim"
      std::stringstream parts(first);
      for (std::string name; std::getline(parts, name, ',');) names.push_back(name);
    }
    return names;
  };
  const auto top = run_cli({"--help"});
  out[""] = options_of(top.out);
  std::istringstream lines(top.out.substr(top.out.find("Subcommands:")));
  std::string line;
  std::getline(lines, line);
  while (std::getline(lines, line) && line.rfind("  ", 0) == 0) {
    if (line.size() > 2 && line[2] == ' ') continue;  // a wrapped description
    std::istringstream words(line);
    std::string name;
    words >> name;
    if (!name.empty() && std::isalpha(static_cast<unsigned char>(name[0])) != 0) out[name] = options_of(run_cli({name, "--help"}).out);
  }
  return out;
}

std::string shell(const std::string& command) {
  std::string out;
  FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) return out;
  std::array<char, 4096> buffer{};
  size_t n = 0;
  while ((n = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0) out.append(buffer.data(), n);
  ::pclose(pipe);
  return out;
}

}  // namespace

TEST(CliHelp, HelpCommandIsCommandHelp) {
  const auto via_help = run_cli({"help", "accept"});
  const auto direct = run_cli({"accept", "--help"});
  EXPECT_EQ(via_help.exit_code, 0);
  EXPECT_EQ(via_help.out, direct.out);
  EXPECT_NE(via_help.out.find("--spec"), std::string::npos);
  const auto nested = run_cli({"help", "spec", "init"});
  EXPECT_EQ(nested.exit_code, 0);
  EXPECT_EQ(nested.out, run_cli({"spec", "init", "--help"}).out);
  EXPECT_EQ(run_cli({"help"}).out, run_cli({"--help"}).out);
}

TEST(CliHelp, MistypedCommandGetsASuggestion) {
  const auto r = run_cli({"acept", "--spec", "x.yaml"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "gpuvet: unknown command 'acept'. Did you mean 'accept'?\n");
  EXPECT_NE(run_cli({"inspcet"}).err.find("Did you mean 'inspect'?"), std::string::npos);
  EXPECT_NE(run_cli({"help", "verfy"}).err.find("Did you mean 'verify'?"), std::string::npos);
  const auto nested = run_cli({"spec", "innit"});
  EXPECT_EQ(nested.exit_code, 2);
  EXPECT_NE(nested.err.find("unknown command 'spec innit'. Did you mean 'spec init'?"), std::string::npos) << nested.err;
  // monitor runs without a nested command too, but takes no positional word: a stray one is a typo.
  const auto optional_nested = run_cli({"monitor", "rulez"});
  EXPECT_EQ(optional_nested.exit_code, 2);
  EXPECT_NE(optional_nested.err.find("Did you mean 'monitor rules'?"), std::string::npos) << optional_nested.err;
}

TEST(CliHelp, FarOffCommandListsTheCommands) {
  const auto r = run_cli({"frobnicate"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err.find("Did you mean"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("Commands: inspect, analyze"), std::string::npos) << r.err;
}

TEST(CliColor, OnlyOnATerminalByDefault) {
  EXPECT_FALSE(has_escape(run_cli(kFailingMachine).out));  // not a terminal
  const auto tty = run_on_terminal(kFailingMachine, nullptr);
  EXPECT_EQ(tty.exit_code, 1);
  EXPECT_TRUE(has_escape(tty.out));
}

TEST(CliColor, NoColorAnyNonEmptyValueDisablesIt) {
  EXPECT_FALSE(has_escape(run_on_terminal(kFailingMachine, "1").out));
  EXPECT_FALSE(has_escape(run_on_terminal(kFailingMachine, "false").out));  // any value, even "false"
  EXPECT_TRUE(has_escape(run_on_terminal(kFailingMachine, "").out));        // empty: as if unset
}

TEST(CliColor, FlagOverridesTerminalAndNoColor) {
  auto always = kFailingMachine;
  always.insert(always.begin(), {"--color", "always"});
  EXPECT_TRUE(has_escape(run_cli(always).out));
  EXPECT_TRUE(has_escape(run_on_terminal(always, "1").out));  // an explicit flag beats NO_COLOR
  auto never = kFailingMachine;
  never.push_back("--color=never");  // after the command too
  const auto r = run_on_terminal(never, nullptr);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_FALSE(has_escape(r.out));
}

TEST(CliColor, BadValueIsUsageError) {
  const auto r = run_cli({"--color", "sometimes", "sim", "list"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--color: expected auto, always or never, got 'sometimes'"), std::string::npos) << r.err;
  EXPECT_EQ(run_cli({"sim", "list", "--color"}).exit_code, 2);
}

TEST(CliCompletion, EveryCommandAndOptionAppears) {
  const auto commands = commands_from_help();
  ASSERT_GT(commands.size(), 12u);
  const auto bash = run_cli({"completion", "bash"});
  const auto zsh = run_cli({"completion", "zsh"});
  ASSERT_EQ(bash.exit_code, 0) << bash.err;
  ASSERT_EQ(zsh.exit_code, 0) << zsh.err;
  // The part of a script that lists what follows `gpuvet COMMAND`.
  auto block = [](const std::string& script, const std::string& command, const std::string& end) {
    const auto at = script.find("    '" + command + "')");
    return at == std::string::npos ? std::string() : script.substr(at, script.find(end, at) - at);
  };
  auto spaced = [](std::string s) {
    for (auto& c : s) c = c == '\'' ? ' ' : c;
    return s + " ";
  };
  for (const auto& [command, options] : commands) {
    if (!command.empty()) {
      EXPECT_NE(bash.out.find("'/" + command + "') path='" + command + "'"), std::string::npos) << command;
      EXPECT_NE(zsh.out.find("'/" + command + "') path_='" + command + "'"), std::string::npos) << command;
      EXPECT_NE(spaced(block(bash.out, "", "\n")).find(" " + command + " "), std::string::npos) << command;
      EXPECT_NE(block(zsh.out, "", ";;").find("'" + command + ":"), std::string::npos) << command;
    }
    const std::string bash_words = spaced(block(bash.out, command, "\n"));
    const std::string zsh_block = block(zsh.out, command, ";;");
    for (const auto& option : options) {
      EXPECT_NE(bash_words.find(" " + option + " "), std::string::npos) << "bash: " << command << " " << option;
      EXPECT_NE(zsh_block.find("'" + option + ":"), std::string::npos) << "zsh: " << command << " " << option;
    }
  }
  EXPECT_EQ(run_cli({"completion", "fish"}).exit_code, 2);
}

TEST(CliCompletion, BashCompletesCommandsOptionsAndValues) {
  const fs::path script = fs::temp_directory_path() / ("gpuvet-completion-" + std::to_string(::getpid()) + ".bash");
  std::ofstream(script) << run_cli({"completion", "bash"}).out;
  auto complete = [&](const std::string& words) {
    return shell("bash -c 'source " + script.string() + " && COMP_WORDS=(" + words +
                 ") && COMP_CWORD=$((${#COMP_WORDS[@]}-1)) && _gpuvet && echo \"${COMPREPLY[*]}\"' 2>&1");
  };
  EXPECT_EQ(shell("bash -n " + script.string() + " 2>&1; echo rc=$?"), "rc=0\n");
  EXPECT_EQ(complete("gpuvet acc"), "accept\n");
  EXPECT_EQ(complete("gpuvet spec i"), "init\n");
  EXPECT_NE(complete("gpuvet accept --sp").find("--spec"), std::string::npos);
  EXPECT_EQ(complete("gpuvet --color a"), "auto always\n");
  EXPECT_EQ(complete("gpuvet inspect --color n"), "never\n");
  fs::remove(script);
}

TEST(CliManPage, EveryCommandAndOptionAppearsAndRoffIsClean) {
  const auto man = run_cli({"man"});
  ASSERT_EQ(man.exit_code, 0) << man.err;
  EXPECT_EQ(man.out.rfind(".\\\" Generated by `gpuvet man`", 0), 0u);
  EXPECT_NE(man.out.find(".TH GPUVET 1"), std::string::npos);
  EXPECT_NE(man.out.find(".SH EXIT STATUS"), std::string::npos);
  EXPECT_NE(man.out.find("NO_COLOR"), std::string::npos);
  auto roff = [](std::string s) {
    std::string out;
    for (char c : s) out += c == '-' ? std::string("\\-") : std::string(1, c);
    return out;
  };
  for (const auto& [command, options] : commands_from_help()) {
    if (!command.empty()) {
      EXPECT_NE(man.out.find(".SS \"gpuvet " + roff(command)), std::string::npos) << command;
    }
    for (const auto& option : options) EXPECT_NE(man.out.find("\\fB" + roff(option) + "\\fR"), std::string::npos) << command << " " << option;
  }
  // groff reads it without a warning (-ww: all warnings; -z: no output).
  if (::access("/usr/bin/groff", X_OK) == 0) {
    const fs::path page = fs::temp_directory_path() / ("gpuvet-man-" + std::to_string(::getpid()) + ".1");
    std::ofstream(page) << man.out;
    EXPECT_EQ(shell("groff -man -Tutf8 -ww -z " + page.string() + " 2>&1"), "");
    EXPECT_NE(shell("groff -man -Tascii -P-bcou " + page.string() + " 2>/dev/null").find("EXIT STATUS"), std::string::npos);
    fs::remove(page);
  }
}
