// Filesystem side of the evidence bundle.
#include "bundle/bundle_dir.hpp"

#include <fmt/format.h>

#include <fstream>
#include <iterator>
#include <system_error>

#include "bundle/sha256.hpp"

namespace gpuvet::bundle {

namespace fs = std::filesystem;

namespace {

core::Error fs_error(const std::string& what, const fs::path& path, const std::error_code& ec) {
  return core::environment_error(fmt::format("{} {}: {}", what, path.string(), ec.message()));
}

core::Result<std::string> slurp(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return core::input_error(fmt::format("cannot read {}", path.string()));
  std::string content((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) return core::input_error(fmt::format("error reading {}", path.string()));
  return content;
}

}  // namespace

core::Result<bool> ensure_directory(const fs::path& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return fs_error("cannot create directory", dir, ec);
  if (!fs::is_directory(dir, ec)) return core::usage_error(fmt::format("{} is not a directory", dir.string()));
  return true;
}

core::Result<std::string> fresh_file(const fs::path& dir, const std::string& name) {
  const fs::path target = dir / name;
  std::error_code ec;
  if (!fs::exists(target, ec)) return target.string();
  // SQLite's write-ahead log and shared-memory files belong to the database: a killed writer
  // leaves commits in the -wal file, so they move with it (and never meet the new database).
  static constexpr const char* kSidecars[] = {"", "-wal", "-shm", "-journal"};
  for (int n = 1;; ++n) {
    const std::string kept = fmt::format("{}.earlier-{}", name, n);
    if (fs::exists(dir / kept, ec)) continue;
    for (const char* suffix : kSidecars) {
      const fs::path from = dir / (name + suffix);
      if (!fs::exists(from, ec)) continue;
      fs::rename(from, dir / (kept + suffix), ec);
      if (ec) return fs_error("cannot keep the earlier file", from, ec);
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

core::Result<std::string> read_file(const fs::path& dir, const std::string& name) { return slurp(dir / name); }

core::Result<Digests> digest_directory(const fs::path& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return core::usage_error(fmt::format("{}: not a directory", dir.string()));
  Digests out;
  fs::recursive_directory_iterator it(dir, ec);
  if (ec) return fs_error("cannot list", dir, ec);
  for (const auto& entry : it) {
    const auto status = entry.symlink_status(ec);
    if (ec) return fs_error("cannot stat", entry.path(), ec);
    if (fs::is_directory(status)) continue;
    const std::string rel = entry.path().lexically_relative(dir).generic_string();
    if (!fs::is_regular_file(status)) {
      return core::input_error(fmt::format("{}: {} is not a regular file (links are not allowed in a bundle)", dir.string(), rel));
    }
    if (rel == kManifestName) continue;
    auto content = slurp(entry.path());
    if (!content) return content.error();
    out[rel] = sha256_hex(*content);
  }
  return out;
}

core::Result<bool> write_manifest(const fs::path& dir) {
  auto digests = digest_directory(dir);
  if (!digests) return digests.error();
  return write_file(dir, std::string(kManifestName), render_manifest(*digests));
}

core::Result<VerifyResult> verify_directory(const fs::path& dir) {
  std::error_code ec;
  if (!fs::exists(dir / kManifestName, ec)) {
    return core::input_error(fmt::format("{}: no {} (not a gpuvet evidence bundle)", dir.string(), kManifestName));
  }
  auto text = slurp(dir / kManifestName);
  if (!text) return text.error();
  auto listed = parse_manifest(*text, (dir / kManifestName).string());
  if (!listed) return listed.error();
  auto present = digest_directory(dir);
  if (!present) return present.error();
  return compare_digests(*listed, *present);
}

}  // namespace gpuvet::bundle
