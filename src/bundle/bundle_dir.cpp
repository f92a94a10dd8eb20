// Filesystem side of the evidence bundle.
#include "bundle/bundle_dir.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <system_error>

#include "bundle/recorded_files.hpp"
#include "bundle/sha256.hpp"
#include "bundle/signature.hpp"
#include "platform/regular_file.hpp"

namespace gpuvet::bundle {

namespace fs = std::filesystem;

namespace {

core::Error fs_error(const std::string& what, const fs::path& path, const std::error_code& ec) {
  return core::environment_error(fmt::format("{} {}: {}", what, path.string(), ec.message()));
}

// A regular file of at most `max_bytes`, read without following a link or blocking on a FIFO.
core::Result<std::string> read_regular(const fs::path& path, std::size_t max_bytes) {
  return platform::read_regular_file(path, max_bytes, "a gpuvet bundle file may have");
}

// Every regular file under dir with its digest, and every directory (relative, '/'-separated).
struct Contents {
  Digests files;
  std::vector<std::string> directories;
};

core::Result<Contents> contents_of(const fs::path& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return core::usage_error(fmt::format("{}: not a directory", dir.string()));
  Contents out;
  fs::recursive_directory_iterator it(dir, ec);
  if (ec) return fs_error("cannot list", dir, ec);
  for (const auto& entry : it) {
    const auto status = entry.symlink_status(ec);
    if (ec) return fs_error("cannot stat", entry.path(), ec);
    const std::string rel = entry.path().lexically_relative(dir).generic_string();
    if (fs::is_directory(status)) {
      out.directories.push_back(rel);
      continue;
    }
    if (!fs::is_regular_file(status)) {
      return core::input_error(fmt::format("{}: {} is not a regular file (links are not allowed in a bundle)", dir.string(), rel));
    }
    if (rel == kManifestName || rel == kSignatureName) continue;  // the seal itself, and its signature
    auto digest = sha256_file(entry.path());
    if (!digest) return digest.error();
    out.files[rel] = std::move(digest).value();
  }
  return out;
}

// The directory compared with the MANIFEST's digests. A directory no listed file lies in (an
// empty one too) was added, as a file would be: "name/".
core::Result<VerifyResult> verify_against(const fs::path& dir, const Digests& listed) {
  auto present = contents_of(dir);  // each file read once, as a stream
  if (!present) return present.error();
  auto result = compare_digests(listed, present->files);
  result.files = present->files.size();
  for (const auto& d : present->directories) {
    const std::string prefix = d + "/";
    const auto inside = listed.lower_bound(prefix);
    if (inside == listed.end() || inside->first.compare(0, prefix.size(), prefix) != 0) result.added.push_back(prefix);
  }
  std::sort(result.added.begin(), result.added.end());
  return result;
}

// "changed report.json, missing junit.xml" (at most a few names).
std::string differences(const VerifyResult& r) {
  std::string out;
  std::size_t shown = 0;
  std::size_t total = r.changed.size() + r.missing.size() + r.added.size();
  const auto add = [&](const char* what, const std::vector<std::string>& paths) {
    for (const auto& p : paths) {
      if (shown++ < 5) out += fmt::format("{}{} {}", out.empty() ? "" : ", ", what, p);
    }
  };
  add("changed", r.changed);
  add("missing", r.missing);
  add("added", r.added);
  if (total > 5) out += fmt::format(" and {} more", total - 5);
  return out;
}

}  // namespace

core::Result<bool> ensure_directory(const fs::path& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return fs_error("cannot create directory", dir, ec);
  if (!fs::is_directory(dir, ec)) return core::usage_error(fmt::format("{} is not a directory", dir.string()));
  return true;
}

core::Result<std::string> fresh_file(const fs::path& dir, const std::string& name, RecordedFiles* recorded) {
  const fs::path target = dir / name;
  // SQLite's write-ahead log and shared-memory files belong to the database: a killed writer
  // leaves commits in the -wal file, so they move with it (and never meet the new database).
  static constexpr const char* kSidecars[] = {"", "-wal", "-shm", "-journal"};
  std::error_code ec;
  const auto present = [&](const std::string& n) { return fs::exists(fs::symlink_status(dir / n, ec)); };
  const bool any = std::any_of(std::begin(kSidecars), std::end(kSidecars), [&](const char* s) { return present(name + s); });
  if (recorded != nullptr) recorded->created(name);
  if (!any) return target.string();
  for (int n = 1;; ++n) {
    const std::string kept = fmt::format("{}.earlier-{}", name, n);
    if (std::any_of(std::begin(kSidecars), std::end(kSidecars), [&](const char* s) { return present(kept + s); })) continue;
    for (const char* suffix : kSidecars) {
      const fs::path from = dir / (name + suffix);
      if (!present(name + suffix)) continue;
      fs::rename(from, dir / (kept + suffix), ec);
      if (ec) return fs_error("cannot keep the earlier file", from, ec);
      if (recorded != nullptr) recorded->moved(name + suffix, kept + suffix);
    }
    return target.string();
  }
}

core::Result<bool> write_file(const fs::path& dir, const std::string& name, std::string_view content) {
  const fs::path target = dir / name;
  const fs::path temp = dir / (name + ".tmp");
  {
    std::ofstream out(temp, std::ios::binary | std::ios::trunc);
    if (!out) return core::environment_error(fmt::format("cannot write {}", temp.string()));
    out.write(content.data(), static_cast<std::streamsize>(content.size()));
    out.flush();
    if (!out) return core::environment_error(fmt::format("error writing {}", temp.string()));
  }
  std::error_code ec;
  fs::rename(temp, target, ec);
  if (ec) return fs_error("cannot rename into", target, ec);
  return true;
}

core::Result<std::string> read_file(const fs::path& dir, const std::string& name) {
  return read_regular(dir / name, 64u << 20);  // state.json as a FIFO or a link must not hang or mislead a resume
}

core::Result<std::string> read_manifest_file(const fs::path& dir) {
  std::error_code ec;
  if (!fs::exists(fs::symlink_status(dir / kManifestName, ec))) {
    return core::input_error(fmt::format("{}: no {} (not a gpuvet evidence bundle)", dir.string(), kManifestName));
  }
  return read_regular(dir / kManifestName, kMaxManifestBytes);
}

core::Result<Digests> digest_directory(const fs::path& dir) {
  auto contents = contents_of(dir);
  if (!contents) return contents.error();
  return std::move(contents).value().files;
}

core::Result<bool> write_manifest(const fs::path& dir) {
  auto digests = digest_directory(dir);
  if (!digests) return digests.error();
  return write_file(dir, std::string(kManifestName), render_manifest(*digests));
}

core::Result<VerifyResult> verify_directory(const fs::path& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return core::usage_error(fmt::format("{}: not a directory", dir.string()));
  auto text = read_manifest_file(dir);
  if (!text) return text.error();
  auto listed = parse_manifest(*text, (dir / kManifestName).string());
  if (!listed) return listed.error();
  return verify_against(dir, *listed);
}

core::Result<std::string> read_verified_file(const fs::path& dir, const std::string& name, std::size_t max_bytes) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return core::usage_error(fmt::format("{}: not a directory", dir.string()));
  auto text = read_manifest_file(dir);
  if (!text) return text.error();
  return read_sealed_file(dir, *text, name, max_bytes);
}

core::Result<std::string> read_sealed_file(const fs::path& dir, std::string_view manifest_text, const std::string& name,
                                           std::size_t max_bytes) {
  auto listed = parse_manifest(manifest_text, (dir / kManifestName).string());
  if (!listed) return listed.error();
  auto result = verify_against(dir, *listed);
  if (!result) return result.error();
  if (!result->intact()) {
    return core::input_error(fmt::format("{}: the bundle differs from its MANIFEST ({}); refusing to read it "
                                         "(gpuvet verify {} lists every difference)",
                                         dir.string(), differences(*result), dir.string()));
  }
  const auto it = listed->find(name);
  if (it == listed->end()) return core::input_error(fmt::format("{}: {} is not in the bundle's MANIFEST", dir.string(), name));
  auto content = read_regular(dir / name, max_bytes);
  if (!content) return content.error();
  // What was read is what the MANIFEST seals, even if the file changed after the check above.
  if (sha256_hex(*content) != it->second) {
    return core::input_error(fmt::format("{}: {} changed while it was read (it differs from the MANIFEST)", dir.string(), name));
  }
  return content;
}

}  // namespace gpuvet::bundle
