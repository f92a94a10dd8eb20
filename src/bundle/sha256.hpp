// SHA-256 through OpenSSL's libcrypto (EVP), for the evidence bundle's MANIFEST.
#pragma once

#include <string>
#include <string_view>

namespace gpuvet::bundle {

// Lowercase hex digest of `data` (64 characters).
std::string sha256_hex(std::string_view data);

}  // namespace gpuvet::bundle
