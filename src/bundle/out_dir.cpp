// Preparing OUT DIR and sealing the files of one accept run.
#include "bundle/out_dir.hpp"

#include <fmt/format.h>

#include <array>
#include <system_error>

#include "bundle/bundle_dir.hpp"
#include "bundle/evidence_bundle.hpp"
#include "bundle/manifest.hpp"
#include "bundle/sha256.hpp"
#include "bundle/signature.hpp"

namespace gpuvet::bundle {

namespace fs = std::filesystem;

namespace {

constexpr std::array<std::string_view, 10> kEvidenceFiles = {
    "machine.json", "topology.txt", "spec.yaml",   "versions.json", "report.json",
    "report.md",    "junit.xml",    "report.html", kManifestName,   kSignatureName};

bool starts_with(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }
bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// "telemetry.db", "telemetry.db-wal", "telemetry.db.earlier-2-shm", ...
bool is_telemetry_file(std::string_view name) {
  const std::string_view db = kTelemetryDatabase;
  if (!starts_with(name, db)) return false;
  std::string_view rest = name.substr(db.size());
  if (starts_with(rest, ".earlier-")) {
    rest.remove_prefix(std::string_view(".earlier-").size());
    std::size_t digits = 0;
    while (digits < rest.size() && rest[digits] >= '0' && rest[digits] <= '9') ++digits;
    if (digits == 0) return false;
    rest.remove_prefix(digits);
  }
  return rest.empty() || rest == "-wal" || rest == "-shm" || rest == "-journal";
}

std::vector<std::string> entries_of(const fs::path& dir, std::error_code& ec) {
  std::vector<std::string> out;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    out.push_back(it->path().filename().string());
  }
  return out;
}

std::string listed(const std::vector<std::string>& names) {
  std::string out;
  for (std::size_t i = 0; i < names.size() && i < 5; ++i) out += (i ? ", " : "") + names[i];
  if (names.size() > 5) out += fmt::format(" and {} more", names.size() - 5);
  return out;
}

core::Result<std::string> move_aside(const fs::path& dir) {
  std::error_code ec;
  for (int n = 1;; ++n) {
    fs::path kept = dir;
    kept += fmt::format(".earlier-{}", n);
    if (fs::exists(kept, ec)) continue;
    fs::rename(dir, kept, ec);
    if (ec) {
      return core::environment_error(
          fmt::format("cannot move the earlier run's bundle {} aside to {}: {}", dir.string(), kept.string(), ec.message()));
    }
    return kept.string();
  }
}

core::Result<bool> check_writable(const fs::path& dir) {
  const std::string probe = ".gpuvet-write-check";
  auto written = write_file(dir, probe, "");
  if (!written) return core::environment_error(fmt::format("--out {} is not writable: {}", dir.string(), written.error().message));
  std::error_code ec;
  fs::remove(dir / probe, ec);
  return true;
}

}  // namespace

bool is_bundle_file(std::string_view name) {
  if (ends_with(name, ".tmp")) name.remove_suffix(4);
  if (name == kStateFile || is_telemetry_file(name)) return true;
  for (const auto file : kEvidenceFiles) {
    if (name == file) return true;
  }
  return false;
}

core::Result<PreparedOutDir> prepare_out_dir(const fs::path& requested,
                                             const std::function<EarlierRun(const std::string&)>& classify) {
  // "bundle/" and "bundle" are one directory; the rename below needs the name without the slash.
  const fs::path dir = requested.lexically_normal().has_filename() ? requested.lexically_normal()
                                                                   : requested.lexically_normal().parent_path();
  PreparedOutDir out;
  std::error_code ec;
  const auto status = fs::status(dir, ec);
  if (fs::exists(status) && !fs::is_directory(status)) {
    return core::usage_error(fmt::format("--out {}: exists and is not a directory", dir.string()));
  }
  if (fs::is_directory(status)) {
    const auto names = entries_of(dir, ec);
    if (ec) return core::environment_error(fmt::format("cannot list --out {}: {}", dir.string(), ec.message()));
    if (!names.empty()) {
      EarlierRun earlier = EarlierRun::not_gpuvet;
      if (fs::exists(dir / kStateFile, ec)) {
        auto state = read_file(dir, kStateFile);
        if (state) earlier = classify(*state);
      } else {
        bool ours = true;
        for (const auto& n : names) ours = ours && is_bundle_file(n);
        if (ours) earlier = EarlierRun::other_run;  // an attempt killed before its first state
      }
      if (earlier == EarlierRun::not_gpuvet) {
        return core::usage_error(fmt::format(
            "--out {}: the directory is not empty and is not a gpuvet evidence bundle (it holds {}); gpuvet writes only "
            "into a new or empty directory, or resumes its own bundle: pass another --out",
            dir.string(), listed(names)));
      }
      if (earlier == EarlierRun::same_run) {
        out.resume = true;
        for (const auto& n : names) {
          if (!is_bundle_file(n) && n != ".gpuvet-write-check") out.foreign.push_back(n);
        }
      } else {
        auto kept = move_aside(dir);
        if (!kept) return kept.error();
        out.moved_aside = std::move(kept).value();
      }
    }
  }
  auto made = ensure_directory(dir);
  if (!made) return made.error();
  auto writable = check_writable(dir);
  if (!writable) return writable.error();
  return out;
}

core::Result<bool> seal_bundle(const fs::path& dir) {
  Digests digests;
  std::error_code ec;
  for (const auto& name : entries_of(dir, ec)) {
    if (!is_bundle_file(name) || ends_with(name, ".tmp") || name == kManifestName || name == kSignatureName) continue;
    const auto status = fs::symlink_status(dir / name, ec);
    if (!fs::is_regular_file(status)) continue;
    auto digest = sha256_file(dir / name);  // streamed: the telemetry database may be large
    if (!digest) return digest.error();
    digests[name] = std::move(digest).value();
  }
  if (ec) return core::environment_error(fmt::format("cannot list {}: {}", dir.string(), ec.message()));
  return write_file(dir, std::string(kManifestName), render_manifest(digests));
}

}  // namespace gpuvet::bundle
