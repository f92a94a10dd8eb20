// MANIFEST rendering, parsing and comparison. Pure.
#include "bundle/manifest.hpp"

#include <fmt/format.h>

namespace gpuvet::bundle {

std::string render_manifest(const Digests& digests) {
  std::string out;
  for (const auto& [path, digest] : digests) out += digest + "  " + path + "\n";
  return out;
}

namespace {

// Text of a line as it can be shown in an error: at most 80 bytes, control bytes as \xNN.
std::string shown(std::string_view text) {
  std::string out;
  for (const unsigned char c : text.substr(0, 80)) {
    if (c < 0x20 || c == 0x7f) {
      out += fmt::format("\\x{:02x}", c);
    } else {
      out += static_cast<char>(c);
    }
  }
  return text.size() > 80 ? out + "..." : out;
}

bool is_digest(std::string_view s) {
  return s.size() == 64 && s.find_first_not_of("0123456789abcdef") == std::string_view::npos;
}

// Why `path` cannot name a file of the bundle, or "" when it can: relative, '/'-separated, no
// empty, "." or ".." component, no control byte.
std::string bad_path(std::string_view path) {
  if (path.empty()) return "empty";
  if (path.front() == '\\') return "an escaped file name (sha256sum's '\\' form) is not used in gpuvet bundles";
  for (const unsigned char c : path) {
    if (c == '\r') return "a carriage return (CRLF line endings?)";
    if (c < 0x20 || c == 0x7f) return fmt::format("a control byte 0x{:02x}", c);
  }
  if (path.front() == '/') return "absolute: it leaves the bundle";
  for (std::size_t start = 0; start <= path.size();) {
    std::size_t end = path.find('/', start);
    if (end == std::string_view::npos) end = path.size();
    const auto part = path.substr(start, end - start);
    if (part.empty() || part == "." || part == "..") return "leaves the bundle, or has an empty, '.' or '..' part";
    start = end + 1;
  }
  if (path == kManifestName) return "the MANIFEST cannot list itself";
  return "";
}

}  // namespace

core::Result<Digests> parse_manifest(std::string_view text, const std::string& file_name) {
  Digests out;
  std::size_t line_no = 0;
  std::size_t pos = 0;
  while (pos < text.size()) {
    const std::size_t end = text.find('\n', pos);
    const std::string_view line = text.substr(pos, end == std::string_view::npos ? std::string_view::npos : end - pos);
    pos = end == std::string_view::npos ? text.size() : end + 1;
    ++line_no;
    if (line.empty()) continue;
    if (!is_digest(line.substr(0, 64)) || line.substr(64, 2) != "  ") {
      return core::input_error(fmt::format("{}: line {}: expected '<sha256 hex>  <path>'", file_name, line_no));
    }
    const std::string_view path = line.substr(66);
    if (auto why = bad_path(path); !why.empty()) {
      return core::input_error(fmt::format("{}: line {}: path '{}': {}", file_name, line_no, shown(path), why));
    }
    if (!out.emplace(std::string(path), std::string(line.substr(0, 64))).second) {
      return core::input_error(fmt::format("{}: line {}: '{}' listed twice", file_name, line_no, shown(path)));
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
