// OUT DIR of an accept run: what may be written into it and what an earlier run left there.
// Called by the accept command before stage 1; the run's identity (resume key) is the caller's.
// Sealing at the end: recorded_files.hpp.
#pragma once

#include <filesystem>
#include <functional>
#include <string>

#include "core/error.hpp"

namespace gpuvet::bundle {

// What an existing state.json says about the run that wrote it.
enum class EarlierRun { same_run, other_run, not_gpuvet };

struct PreparedOutDir {
  bool resume = false;                // a bundle of this very run: its done stages may be kept
  std::string moved_aside;            // where another run's bundle went ("" when none)
};

// Makes `dir` ready before anything is measured:
// - missing or empty: created;
// - a gpuvet bundle of this run (`classify` of its state.json says same_run): kept for resuming;
// - a gpuvet bundle of another run: renamed to DIR.earlier-N (first free N), and a new DIR made;
// - any other non-empty directory (no state.json, or one that is not gpuvet's), even one holding
//   only files with the names gpuvet writes (a user's report.md), or a file: refused (usage error
//   naming what is there), so a user's files are never moved, replaced or sealed.
// Then checks that DIR is writable, so an unwritable --out fails before stage 1.
core::Result<PreparedOutDir> prepare_out_dir(const std::filesystem::path& dir,
                                             const std::function<EarlierRun(const std::string& state_text)>& classify);

}  // namespace gpuvet::bundle
