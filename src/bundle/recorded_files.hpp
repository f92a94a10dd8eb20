// The files of an accept bundle that outlive one attempt (the burn-in's telemetry database, and an
// earlier attempt's kept beside it) and the seal at the end of a run: such a file is sealed only
// with the SHA-256 that state.json recorded when gpuvet wrote it, so a file put into OUT DIR between
// runs is never sealed, signed or replayed into a database (issue 20).
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "bundle/manifest.hpp"
#include "core/error.hpp"

namespace gpuvet::bundle {

// True for the telemetry database's names: "telemetry.db", its SQLite sidecars ("-wal", "-shm",
// "-journal") and earlier attempts ("telemetry.db.earlier-2", "telemetry.db.earlier-2-wal").
bool is_telemetry_file(std::string_view name);

// The recorded files of one run, kept by the accept command on its thread: loaded from state.json
// on resume (then vet_recorded_files), told by fresh_file() what it creates and moves, recorded
// (record) before each save of state.json, and sealed (plan_seal, seal_bundle) at the end.
class RecordedFiles {
 public:
  RecordedFiles() = default;
  // name -> SHA-256, as state.json recorded them.
  explicit RecordedFiles(Digests recorded) : recorded_(std::move(recorded)) {}

  [[nodiscard]] const Digests& digests() const { return recorded_; }
  // This run creates dir/name: it is digested by the next record().
  void created(const std::string& name);
  // dir/from became dir/to (an earlier attempt kept aside): its recorded digest goes with it.
  void moved(const std::string& from, const std::string& to);
  // Digests each file created since the last call, with its SQLite sidecars when still there.
  // Errors (environment or bad_input) name the file.
  core::Result<bool> record(const std::filesystem::path& dir);
  // Drops a name whose file no longer has its recorded digest.
  void forget(const std::string& name) { recorded_.erase(name); }

 private:
  Digests recorded_;
  std::vector<std::string> created_;
};

// On resume, before anything opens a database of the bundle: keeps in `files` only the recorded
// files that are still there with their recorded digest, and moves every telemetry sidecar (-wal,
// -shm, -journal) without one aside to NAME.unrecorded-N, unused, so SQLite never replays it into
// a database. Returns one note per file moved. Other unrecorded files stay, unsealed (plan_seal).
core::Result<std::vector<std::string>> vet_recorded_files(const std::filesystem::path& dir, RecordedFiles& files);

// What the MANIFEST of a finishing run seals besides the evidence files and state.json it writes:
// the recorded files (with their recorded digests) still there. `foreign` names everything else in
// DIR (a directory with a trailing '/'): left out of the MANIFEST, named in the report's notes.
struct SealPlan {
  Digests recorded;
  std::vector<std::string> foreign;
};
core::Result<SealPlan> plan_seal(const std::filesystem::path& dir, const RecordedFiles& files);

// Writes DIR/MANIFEST over the evidence files and state.json as they are now, and plan.recorded.
core::Result<bool> seal_bundle(const std::filesystem::path& dir, const SealPlan& plan);

}  // namespace gpuvet::bundle
