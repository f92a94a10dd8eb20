// Reading files the user names on the command line (pasted nvidia-smi output, specs).
#pragma once

#include <string>

#include "core/error.hpp"

namespace gpuvet::platform {

// Whole file ("-" reads standard input, named "<stdin>" in errors). Error (bad_input) names the
// path and the OS's reason. Refuses more than `max_bytes` so a wrong argument (a disk image,
// /dev/zero) cannot exhaust memory.
core::Result<std::string> read_user_file(const std::string& path, std::size_t max_bytes = 64u << 20);

}  // namespace gpuvet::platform
