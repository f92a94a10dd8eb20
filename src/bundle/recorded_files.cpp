// Recorded files of a bundle, the check of a resumed bundle against state.json, and the seal.
#include "bundle/recorded_files.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <system_error>

#include "bundle/bundle_dir.hpp"
#include "bundle/evidence_bundle.hpp"
#include "bundle/sha256.hpp"
#include "bundle/signature.hpp"

namespace gpuvet::bundle {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view kSidecars[] = {"-wal", "-shm", "-journal"};
// Left by prepare_out_dir's check that DIR is writable when a run is killed right then: empty.
constexpr std::string_view kWriteCheck = ".gpuvet-write-check";

bool starts_with(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }
bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

bool is_sidecar(std::string_view name) {
  return std::any_of(std::begin(kSidecars), std::end(kSidecars), [&](std::string_view s) { return ends_with(name, s); });
}

// Names directly in `dir`, directories with a trailing '/'.
core::Result<std::vector<std::string>> entries_of(const fs::path& dir) {
  std::vector<std::string> out;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const bool directory = fs::is_directory(it->symlink_status(ec));
    out.push_back(it->path().filename().string() + (directory ? "/" : ""));
  }
  if (ec) return core::environment_error(fmt::format("cannot list {}: {}", dir.string(), ec.message()));
  std::sort(out.begin(), out.end());
  return out;
}

// The SHA-256 of dir/name when it is a regular file (never followed through a link); "" otherwise.
std::string digest_of(const fs::path& dir, const std::string& name) {
  std::error_code ec;
  if (!fs::is_regular_file(fs::symlink_status(dir / name, ec))) return "";
  auto digest = sha256_file(dir / name);
  return digest ? std::move(digest).value() : "";
}

// The first free NAME.unrecorded-N.
std::string aside_name(const fs::path& dir, const std::string& name) {
  std::error_code ec;
  for (int n = 1;; ++n) {
    std::string kept = fmt::format("{}.unrecorded-{}", name, n);
    if (!fs::exists(fs::symlink_status(dir / kept, ec))) return kept;
  }
}

}  // namespace

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
  return rest.empty() || std::find(std::begin(kSidecars), std::end(kSidecars), rest) != std::end(kSidecars);
}

void RecordedFiles::created(const std::string& name) { created_.push_back(name); }

void RecordedFiles::moved(const std::string& from, const std::string& to) {
  const auto it = recorded_.find(from);
  if (it == recorded_.end()) return;
  std::string digest = std::move(it->second);
  recorded_.erase(it);
  recorded_[to] = std::move(digest);
}

core::Result<bool> RecordedFiles::record(const fs::path& dir) {
  for (const auto& name : created_) {
    std::vector<std::string> names = {name};
    for (const auto suffix : kSidecars) names.push_back(name + std::string(suffix));
    std::error_code ec;
    for (const auto& n : names) {
      if (!fs::exists(fs::symlink_status(dir / n, ec))) continue;
      auto digest = sha256_file(dir / n);  // streamed: the database may be large
      if (!digest) return digest.error();
      recorded_[n] = std::move(digest).value();
    }
  }
  created_.clear();
  return true;
}

core::Result<std::vector<std::string>> vet_recorded_files(const fs::path& dir, RecordedFiles& files) {
  auto names = entries_of(dir);
  if (!names) return names.error();
  const Digests recorded = files.digests();
  for (const auto& [name, digest] : recorded) {
    if (digest_of(dir, name) != digest) files.forget(name);
  }
  std::vector<std::string> notes;
  for (const auto& name : *names) {
    if (!is_telemetry_file(name) || !is_sidecar(name) || files.digests().contains(name)) continue;
    const std::string kept = aside_name(dir, name);
    std::error_code ec;
    fs::rename(dir / name, dir / kept, ec);
    if (ec) {
      return core::environment_error(fmt::format("cannot move {} aside (state.json did not record it, so it must not be "
                                                 "replayed into the telemetry database): {}",
                                                 (dir / name).string(), ec.message()));
    }
    notes.push_back(fmt::format("{} was not recorded by state.json (gpuvet did not write it): it was moved to {}, unused "
                                "and not sealed, so SQLite never replays it into the telemetry database",
                                name, kept));
  }
  return notes;
}

core::Result<SealPlan> plan_seal(const fs::path& dir, const RecordedFiles& files) {
  auto names = entries_of(dir);
  if (!names) return names.error();
  SealPlan plan;
  for (const auto& name : *names) {
    const bool written_now = name == kStateFile || name == kManifestName || name == kSignatureName || name == kWriteCheck ||
                             std::find(kEvidenceFiles.begin(), kEvidenceFiles.end(), name) != kEvidenceFiles.end();
    if (written_now) continue;
    const auto recorded = files.digests().find(name);
    if (recorded != files.digests().end() && digest_of(dir, name) == recorded->second) {
      plan.recorded.insert(*recorded);
    } else {
      plan.foreign.push_back(name);
    }
  }
  return plan;
}

core::Result<bool> seal_bundle(const fs::path& dir, const SealPlan& plan) {
  Digests digests = plan.recorded;
  std::vector<std::string_view> written(kEvidenceFiles.begin(), kEvidenceFiles.end());
  written.push_back(kStateFile);
  for (const auto name : written) {
    std::error_code ec;
    if (!fs::exists(fs::symlink_status(dir / name, ec))) continue;  // state.json: a run with no stage saved
    auto digest = sha256_file(dir / name);
    if (!digest) return digest.error();
    digests[std::string(name)] = std::move(digest).value();
  }
  return write_file(dir, std::string(kManifestName), render_manifest(digests));
}

}  // namespace gpuvet::bundle
