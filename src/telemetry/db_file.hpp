// The filesystem side of opening a burn-in database (internal to src/telemetry): refusing what is
// not a readable regular file, creating a new file exclusively, and the private copy through which
// a database with a -wal or -journal beside it is read without changing a byte of the original.
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "core/error.hpp"

namespace gpuvet::telemetry {

// SQLite's files that belong to a database: a killed writer leaves its last commits in the -wal.
inline constexpr const char* kDatabaseSidecars[] = {"-wal", "-journal"};

// OK when `path` is a regular file this process can open for reading. Errors (bad_input) name the
// path and the reason: no such file, a directory, a FIFO or device, permission denied. Never
// blocks (a FIFO is refused, not opened for reading).
std::optional<core::Error> check_readable_file(const std::string& path);

// Creates `path` empty with O_EXCL, so of two runs started on one path at the same moment exactly
// one gets it. Errors: usage when it (or a -wal/-journal of that name, which SQLite would replay
// into the new database) exists already; environment otherwise (no such directory, read-only).
std::optional<core::Error> create_exclusively(const std::string& path);

// True when a -wal or -journal file sits beside `path` (a run killed or still writing).
bool has_sidecar(const std::string& path);

// A copy of a database and its -wal/-journal in a fresh directory under the system temp dir,
// removed with the object. The original is only read (never locked, never written).
class PrivateCopy {
 public:
  // Errors: bad_input when the original cannot be read; environment when the temp dir cannot be
  // written; bad_input when the original kept changing while being copied (a writer still busy).
  static core::Result<std::unique_ptr<PrivateCopy>> make(const std::string& path);
  ~PrivateCopy();
  PrivateCopy(const PrivateCopy&) = delete;
  PrivateCopy& operator=(const PrivateCopy&) = delete;
  [[nodiscard]] std::string database() const { return (dir_ / "copy.db").string(); }

 private:
  explicit PrivateCopy(std::filesystem::path dir) : dir_(std::move(dir)) {}
  std::filesystem::path dir_;
};

// "file:///abs/path?immutable=1" for sqlite3_open_v2 with SQLITE_OPEN_URI: the file is read with
// no locks and no -shm/-wal created. Only for a database with no sidecar (immutable ignores them).
std::string immutable_uri(const std::string& path);

}  // namespace gpuvet::telemetry
