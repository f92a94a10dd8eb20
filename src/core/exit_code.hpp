// The documented exit codes (README "Exit codes", `gpuvet --help`). Append-only.
#pragma once

#include "core/error.hpp"

namespace gpuvet::core {

enum class ExitCode : int {
  pass = 0,         // ran, nothing failed
  fail = 1,         // ran, the machine has at least one failing finding
  usage = 2,        // bad command line or malformed input file
  incomplete = 3,   // a required check could not run; no verdict
  environment = 4,  // missing driver/library/permission on this machine
  internal = 5,     // a bug in gpuvet
};

constexpr ExitCode exit_code_for(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::usage:
    case ErrorKind::bad_input: return ExitCode::usage;
    case ErrorKind::environment: return ExitCode::environment;
    case ErrorKind::internal: return ExitCode::internal;
  }
  return ExitCode::internal;
}

}  // namespace gpuvet::core
