// The bundle's MANIFEST: one line per file, "<sha256>  <relative path>", the format
// `sha256sum -c MANIFEST` reads, sorted by path. `gpuvet verify` compares it with the directory.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.hpp"

namespace gpuvet::bundle {

inline constexpr std::string_view kManifestName = "MANIFEST";
// A MANIFEST longer than this is refused unread (ours: ~100 bytes per file).
inline constexpr std::size_t kMaxManifestBytes = 16u << 20;

// path -> sha256 hex
using Digests = std::map<std::string, std::string>;

std::string render_manifest(const Digests& digests);
// Errors (bad_input) name the line.
core::Result<Digests> parse_manifest(std::string_view text, const std::string& file_name);

struct VerifyResult {
  std::vector<std::string> changed;  // content differs from the MANIFEST
  std::vector<std::string> missing;  // listed but absent
  std::vector<std::string> added;    // present but not listed
  std::size_t files = 0;             // files found in the directory (MANIFEST excluded)
  [[nodiscard]] bool intact() const { return changed.empty() && missing.empty() && added.empty(); }
};

// Compares what the MANIFEST lists with what the directory holds now (both path -> digest).
VerifyResult compare_digests(const Digests& listed, const Digests& present);

}  // namespace gpuvet::bundle
