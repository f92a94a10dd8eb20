// The gpuvet(1) man page in roff (man macros), generated from the CLI definition (`gpuvet man`).
#pragma once

#include <string>

#include "cli/cli_model.hpp"

namespace gpuvet::cli {

// `exit_codes`: the table --help prints ("  0  pass: ..." lines).
std::string man_page(const CliCommand& root, const std::string& version, const std::string& exit_codes);

}  // namespace gpuvet::cli
