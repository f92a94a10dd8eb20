// Runs the gpuvet CLI in-process and captures stdout, stderr and the exit code.
#pragma once

#include <string>
#include <vector>

namespace gpuvet::testing {

struct CliRun {
  int exit_code = -1;
  std::string out;
  std::string err;
};

CliRun run_cli(const std::vector<std::string>& args);
std::string fixture(const std::string& relative);  // absolute path under tests/fixtures

}  // namespace gpuvet::testing
