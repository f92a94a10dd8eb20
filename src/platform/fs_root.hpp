// Read-only access to a filesystem tree under a root ("/" live, a captured sysfs tree in
// tests). The only place gpuvet reads /sys or /proc; backends get an FsRoot, never a path.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace gpuvet::platform {

class FsRoot {
 public:
  explicit FsRoot(std::filesystem::path root = "/") : root_(std::move(root)) {}

  [[nodiscard]] const std::filesystem::path& root() const { return root_; }
  // Absolute-looking paths ("/sys/bus/pci") are taken relative to the root.
  [[nodiscard]] std::filesystem::path resolve(const std::string& path) const;
  // Whole file, or nullopt when it cannot be read.
  [[nodiscard]] std::optional<std::string> read(const std::string& path) const;
  // First line without trailing whitespace.
  [[nodiscard]] std::optional<std::string> read_line(const std::string& path) const;
  [[nodiscard]] bool exists(const std::string& path) const;
  // Entry names in a directory, sorted; empty when absent.
  [[nodiscard]] std::vector<std::string> list(const std::string& path) const;
  // Target of a symlink, resolved to a path relative to the root ("/sys/devices/...").
  [[nodiscard]] std::optional<std::string> canonical(const std::string& path) const;

 private:
  std::filesystem::path root_;
};

}  // namespace gpuvet::platform
