// Shell completion scripts generated from the CLI definition (`gpuvet completion bash|zsh`):
// subcommands at every level, their options, fixed option values, files for everything else.
#pragma once

#include <string>

#include "cli/cli_model.hpp"

namespace gpuvet::cli {

std::string bash_completion(const CliCommand& root);
std::string zsh_completion(const CliCommand& root);

}  // namespace gpuvet::cli
