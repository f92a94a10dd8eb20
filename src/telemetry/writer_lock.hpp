// One writer per history database (internal to src/telemetry): an advisory lock on FILE.lock
// beside the database, held by TelemetryStore from create()/reopen() until it is destroyed, so a
// second monitor or burn-in on the same --db is refused at once instead of interleaving its samples.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "core/error.hpp"

namespace gpuvet::telemetry {

// The lock is an open-file-description lock (fcntl F_OFD_SETLK) on FILE.lock: it conflicts between
// processes and between two opens in one process, and the kernel drops it when its holder exits,
// however it exits. SQLite's own POSIX locks are on the database file, never on FILE.lock. The
// file holds the holder's "pid N" and start time, for the refusal; a file left by a killed writer
// holds no lock and blocks nothing. Readers never take it nor create it.
class WriterLock {
 public:
  // Takes the lock of the database `db_path` for this object's life, writing this process's pid
  // and `now_unix_ms` into the lock file. Errors: usage (exit 2) when another writer holds it,
  // "FILE is being written by another gpuvet (pid N, started T); refusing to write it too";
  // environment when the lock file cannot be created or locked.
  static core::Result<std::unique_ptr<WriterLock>> acquire(const std::string& db_path, std::int64_t now_unix_ms);
  // OK when no writer holds the lock of `db_path` now; otherwise the refusal acquire() would give.
  // Creates nothing and takes no lock (for checks a writer makes before it writes).
  static std::optional<core::Error> check_free(const std::string& db_path);
  // Removes the lock file (while still holding the lock) and releases it.
  ~WriterLock();
  WriterLock(const WriterLock&) = delete;
  WriterLock& operator=(const WriterLock&) = delete;

  // "FILE.lock".
  static std::string lock_path(const std::string& db_path);

 private:
  WriterLock(int fd, std::string path) : fd_(fd), path_(std::move(path)) {}
  int fd_;
  std::string path_;  // the lock file
};

}  // namespace gpuvet::telemetry
