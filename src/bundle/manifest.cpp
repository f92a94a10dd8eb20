// MANIFEST rendering, parsing and comparison. Pure.
#include "bundle/manifest.hpp"

#include <fmt/format.h>

namespace gpuvet::bundle {

std::string render_manifest(const Digests& digests) {
  std::string out;
  for (const auto& [path, digest] : digests) out += digest + "  " + path + "\n";
  return out;
}

core::Result<Digests> parse_manifest(std::string_view text, const std::string& file_name) {
  Digests out;
  int line_no = 0;
  size_t pos = 0;
  while (pos < text.size()) {
    const size_t end = text.find('\n', pos);
    std::string_view line = text.substr(pos, end == std::string_view::npos ? std::string_view::npos : end - pos);
    pos = end == std::string_view::npos ? text.size() : end + 1;
    ++line_no;
    if (line.empty()) continue;
    const bool hex = line.size() > 66 && line.substr(0, 64).find_first_not_of("0123456789abcdef") == std::string_view::npos;
    if (!hex || line.substr(64, 2) != "  ") {
      return core::input_error(fmt::format("{}: line {}: expected '<sha256 hex>  <path>'", file_name, line_no));
    }
    const std::string path(line.substr(66));
    if (path.find("..") != std::string::npos || path.front() == '/') {
      return core::input_error(fmt::format("{}: line {}: path '{}' leaves the bundle", file_name, line_no, path));
    }
    if (!out.emplace(path, std::string(line.substr(0, 64))).second) {
      return core::input_error(fmt::format("{}: line {}: '{}' listed twice", file_name, line_no, path));
    }
  }
  return out;
}

VerifyResult compare_digests(const Digests& listed, const Digests& present) {
  VerifyResult r;
  for (const auto& [path, digest] : listed) {
    auto it = present.find(path);
    if (it == present.end()) {
      r.missing.push_back(path);
    } else if (it->second != digest) {
      r.changed.push_back(path);
    }
  }
  for (const auto& [path, digest] : present) {
    if (!listed.contains(path)) r.added.push_back(path);
  }
  return r;
}

}  // namespace gpuvet::bundle
