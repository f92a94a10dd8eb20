// SHA-256 through OpenSSL's libcrypto (EVP), for the evidence bundle's MANIFEST.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include "core/error.hpp"

namespace gpuvet::bundle {

// Lowercase hex digest of `data` (64 characters).
std::string sha256_hex(std::string_view data);

// Lowercase hex digest of a regular file, read once as a stream through a fixed 1 MiB buffer
// (memory does not grow with the file). Never follows a symlink and never blocks on a FIFO.
// Errors (bad_input) name the path and the OS's reason, or "not a regular file".
core::Result<std::string> sha256_file(const std::filesystem::path& path);

}  // namespace gpuvet::bundle
