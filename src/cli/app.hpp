// The gpuvet command line: parses arguments, runs one subcommand, returns the exit code.
// main() is a one-liner around this so tests can drive the whole CLI in-process.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "core/exit_code.hpp"

namespace gpuvet::cli {

struct Streams {
  std::ostream& out;
  std::ostream& err;
  bool out_is_terminal = false;
  bool color = false;  // ANSI colour in reports: decided by run() from --color, NO_COLOR and the terminal
};

core::ExitCode run(const std::vector<std::string>& args, Streams streams);

// The exit-code table printed by --help and kept in the README.
extern const char* const kExitCodeHelp;

}  // namespace gpuvet::cli
