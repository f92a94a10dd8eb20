// Validators shared by the commands' options.
#pragma once

#include <string>

#include <CLI/CLI.hpp>

namespace gpuvet::cli {

// A path option given an empty value (`--out "$DIR"` with DIR unset) is a usage error: ignoring it
// would write somewhere the user did not ask for, or silently skip the output they did ask for.
inline CLI::Validator non_empty_path() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        if (!text.empty()) return {};
        return "empty; expected a path (leave the option out for the default)";
      },
      "PATH", "non_empty_path");
}

}  // namespace gpuvet::cli
