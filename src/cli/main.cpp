// gpuvet entry point: the only place an exit code leaves the process.
#include <unistd.h>

#include <exception>
#include <iostream>

#include "cli/app.hpp"

int main(int argc, char** argv) {
  try {
    std::vector<std::string> args(argv + 1, argv + argc);
    const auto code = gpuvet::cli::run(args, {std::cout, std::cerr, isatty(STDOUT_FILENO) == 1});
    return static_cast<int>(code);
  } catch (const std::exception& e) {
    std::cerr << "gpuvet: internal error: " << e.what() << "\n";
  } catch (...) {
    std::cerr << "gpuvet: internal error: unknown exception\n";
  }
  return static_cast<int>(gpuvet::core::ExitCode::internal);
}
