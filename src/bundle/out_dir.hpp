// OUT DIR of an accept run: what may be written into it, what an earlier run left there, and
// sealing exactly the files gpuvet wrote. Called by the accept command before stage 1 and at
// the end; the run's identity (resume key) is the caller's.
#pragma once

#include <filesystem>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.hpp"

namespace gpuvet::bundle {

// True for the names gpuvet writes into a bundle: the evidence files, MANIFEST, state.json, the
// telemetry database with its SQLite sidecars and earlier attempts, and their ".tmp" files.
bool is_bundle_file(std::string_view name);

// What an existing state.json says about the run that wrote it.
enum class EarlierRun { same_run, other_run, not_gpuvet };

struct PreparedOutDir {
  bool resume = false;                // a bundle of this very run: its done stages may be kept
  std::string moved_aside;            // where another run's bundle went ("" when none)
  std::vector<std::string> foreign;   // files of a resumed bundle gpuvet did not write (never sealed)
};

// Makes `dir` ready before anything is measured:
// - missing or empty: created;
// - a gpuvet bundle of this run (`classify` of its state.json says same_run): kept for resuming;
// - a gpuvet bundle of another run: renamed to DIR.earlier-N (first free N), and a new DIR made;
// - any other non-empty directory, or a file: refused (usage error naming what is there), so a
//   user's files are never replaced or sealed.
// Then checks that DIR is writable, so an unwritable --out fails before stage 1.
core::Result<PreparedOutDir> prepare_out_dir(const std::filesystem::path& dir,
                                             const std::function<EarlierRun(const std::string& state_text)>& classify);

// Writes DIR/MANIFEST over the regular files of DIR that is_bundle_file() names (".tmp" files
// excluded). Anything else in DIR stays out of the MANIFEST, so `gpuvet verify` reports it.
core::Result<bool> seal_bundle(const std::filesystem::path& dir);

}  // namespace gpuvet::bundle
