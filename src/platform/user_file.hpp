// Reading files the user names on the command line (pasted nvidia-smi output, specs, reports).
#pragma once

#include <chrono>
#include <string>

#include "core/error.hpp"

namespace gpuvet::platform {

struct UserFileLimits {
  std::size_t max_bytes = 64u << 20;
  // A pipe or FIFO that sends nothing for this long is an error, not a hang: a FIFO nobody
  // writes to would otherwise block for ever.
  std::chrono::milliseconds idle_timeout{30'000};
};

// Whole file ("-" reads standard input, named "<stdin>" in errors). Error (bad_input) names the
// path and the OS's reason. Regular files, pipes and FIFOs are read (`<(ssh host nvidia-smi ...)`
// works); directories, devices and sockets are refused. Refuses more than `max_bytes` so a wrong
// argument cannot exhaust memory.
core::Result<std::string> read_user_file(const std::string& path, UserFileLimits limits);
core::Result<std::string> read_user_file(const std::string& path);

}  // namespace gpuvet::platform
