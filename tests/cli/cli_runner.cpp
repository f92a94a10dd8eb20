// In-process CLI runner for tests.
#include "cli_runner.hpp"

#include <sstream>

#include "cli/app.hpp"

namespace gpuvet::testing {

CliRun run_cli(const std::vector<std::string>& args) {
  std::ostringstream out, err;
  const auto code = cli::run(args, {out, err, false});
  return CliRun{static_cast<int>(code), out.str(), err.str()};
}

std::string fixture(const std::string& relative) { return std::string(GPUVET_FIXTURES) + "/" + relative; }

}  // namespace gpuvet::testing
