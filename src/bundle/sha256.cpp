// SHA-256 with libcrypto's EVP interface (the low-level SHA256_* calls are deprecated in 3.0).
#include "bundle/sha256.hpp"

#include <openssl/evp.h>

#include <array>
#include <memory>
#include <stdexcept>
#include <vector>

#include <fmt/format.h>

#include "platform/regular_file.hpp"

namespace gpuvet::bundle {

namespace {

// An incremental SHA-256. Only allocation failure makes libcrypto fail here; callers treat the
// exception as an internal error.
class Hasher {
 public:
  Hasher() : ctx_(EVP_MD_CTX_new(), EVP_MD_CTX_free) {
    if (!ctx_ || EVP_DigestInit_ex(ctx_.get(), EVP_sha256(), nullptr) != 1) throw std::runtime_error("libcrypto: SHA-256 failed");
  }
  void update(const void* data, std::size_t size) {
    if (EVP_DigestUpdate(ctx_.get(), data, size) != 1) throw std::runtime_error("libcrypto: SHA-256 failed");
  }
  std::string hex() {
    std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
    unsigned int length = 0;
    if (EVP_DigestFinal_ex(ctx_.get(), digest.data(), &length) != 1) throw std::runtime_error("libcrypto: SHA-256 failed");
    static constexpr char kHex[] = "0123456789abcdef";
    std::string out;
    out.reserve(length * 2);
    for (unsigned int i = 0; i < length; ++i) {
      out.push_back(kHex[digest[i] >> 4]);
      out.push_back(kHex[digest[i] & 0xf]);
    }
    return out;
  }

 private:
  std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx_;
};

}  // namespace

std::string sha256_hex(std::string_view data) {
  Hasher h;
  h.update(data.data(), data.size());
  return h.hex();
}

core::Result<std::string> sha256_file(const std::filesystem::path& path) {
  auto file = platform::RegularFile::open(path);
  if (!file.ok()) return file.error();
  constexpr std::size_t kBuffer = 1u << 20;
  std::vector<unsigned char> buffer(kBuffer);
  Hasher h;
  while (true) {
    auto n = file.value().read(buffer.data(), buffer.size());
    if (!n.ok()) return n.error();
    if (n.value() == 0) break;
    h.update(buffer.data(), n.value());
  }
  return h.hex();
}

}  // namespace gpuvet::bundle
