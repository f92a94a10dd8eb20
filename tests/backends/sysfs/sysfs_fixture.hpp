// The hand-built sysfs trees under tests/fixtures/sysfs (see make_trees.sh there).
#pragma once

#include <filesystem>
#include <string>

#include "platform/fs_root.hpp"

namespace gpuvet::sysfs::testing {

inline platform::FsRoot fixture_root(const std::string& tree) {
  return platform::FsRoot(std::filesystem::path(GPUVET_FIXTURES) / "sysfs" / tree);
}

inline platform::FsRoot missing_root() {
  return platform::FsRoot(std::filesystem::path(GPUVET_FIXTURES) / "sysfs" / "no-such-tree");
}

}  // namespace gpuvet::sysfs::testing
