// Preparing OUT DIR for one accept run.
#include "bundle/out_dir.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <system_error>

#include "bundle/bundle_dir.hpp"
#include "bundle/evidence_bundle.hpp"

namespace gpuvet::bundle {

namespace fs = std::filesystem;

namespace {

// Left by check_writable when a run is killed right then: empty, and not a user's file.
constexpr const char* kWriteCheck = ".gpuvet-write-check";

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
  const std::string probe = kWriteCheck;
  auto written = write_file(dir, probe, "");
  if (!written) return core::environment_error(fmt::format("--out {} is not writable: {}", dir.string(), written.error().message));
  std::error_code ec;
  fs::remove(dir / probe, ec);
  return true;
}

}  // namespace

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
    auto names = entries_of(dir, ec);
    if (ec) return core::environment_error(fmt::format("cannot list --out {}: {}", dir.string(), ec.message()));
    names.erase(std::remove(names.begin(), names.end(), kWriteCheck), names.end());
    if (!names.empty()) {
      // Only a gpuvet state.json makes a directory a bundle: files that merely carry the names
      // gpuvet writes (a user's own report.md) are the user's, never moved aside as a run's.
      EarlierRun earlier = EarlierRun::not_gpuvet;
      if (fs::exists(fs::symlink_status(dir / kStateFile, ec))) {
        auto state = read_file(dir, kStateFile);
        if (state) earlier = classify(*state);
      }
      if (earlier == EarlierRun::not_gpuvet) {
        return core::usage_error(fmt::format(
            "--out {}: the directory is not empty and is not a gpuvet evidence bundle (it holds {}), having no gpuvet {}; "
            "gpuvet writes only into a new or empty directory, or resumes its own bundle: pass another --out",
            dir.string(), listed(names), kStateFile));
      }
      if (earlier == EarlierRun::same_run) {
        out.resume = true;
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

}  // namespace gpuvet::bundle
