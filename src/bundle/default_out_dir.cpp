// Dated default bundle directory of accept.
#include "bundle/default_out_dir.hpp"

#include <cctype>
#include <system_error>

#include <fmt/format.h>

namespace gpuvet::bundle {

namespace {

constexpr int kMaxSuffix = 1000;

}  // namespace

std::string default_out_dir_name(std::string_view host, std::time_t utc) {
  std::string safe;
  for (char ch : host) {
    const auto c = static_cast<unsigned char>(ch);
    if (std::isalnum(c) || ch == '.' || ch == '-' || ch == '_') safe += ch;
  }
  while (!safe.empty() && safe.front() == '.') safe.erase(safe.begin());  // never a hidden or ".." name
  if (safe.empty()) safe = "unknown-host";
  std::tm t{};
  gmtime_r(&utc, &t);
  return fmt::format("gpuvet-accept-{}-{:04}{:02}{:02}T{:02}{:02}{:02}Z", safe, t.tm_year + 1900, t.tm_mon + 1, t.tm_mday,
                     t.tm_hour, t.tm_min, t.tm_sec);
}

core::Result<std::filesystem::path> create_default_out_dir(const std::filesystem::path& base, std::string_view host,
                                                           std::time_t utc) {
  const std::string name = default_out_dir_name(host, utc);
  for (int n = 1; n <= kMaxSuffix; ++n) {
    const auto dir = base / (n == 1 ? name : fmt::format("{}-{}", name, n));
    std::error_code ec;
    if (std::filesystem::create_directory(dir, ec)) return dir;  // false when it exists: try the next suffix
    if (ec && !std::filesystem::exists(dir)) {
      return core::environment_error(
          fmt::format("cannot create the bundle directory {}: {} (give another with --out DIR)", dir.string(), ec.message()));
    }
  }
  return core::environment_error(
      fmt::format("{}/{}-2 .. -{} all exist: give a bundle directory with --out DIR", base.string(), name, kMaxSuffix));
}

}  // namespace gpuvet::bundle
