// The writer's lock on FILE.lock: taken with F_OFD_SETLK, checked with F_OFD_GETLK, the holder's
// pid and start time in the file for the refusal.
#include "telemetry/writer_lock.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <ctime>
#include <system_error>

#include <fmt/format.h>

namespace gpuvet::telemetry {

namespace {

std::string os_reason(int error) { return std::error_code(error, std::generic_category()).message(); }

struct flock whole_file(short type) {
  struct flock l {};
  l.l_type = type;
  l.l_whence = SEEK_SET;
  l.l_start = 0;
  l.l_len = 0;  // to the end, however long the file grows
  l.l_pid = 0;  // OFD locks require 0
  return l;
}

std::string utc_text(std::int64_t unix_ms) {
  const std::time_t seconds = static_cast<std::time_t>(unix_ms / 1000);
  std::tm tm{};
  if (::gmtime_r(&seconds, &tm) == nullptr) return "at an unknown time";
  return fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}Z", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min,
                     tm.tm_sec);
}

// The value after "KEY " on a line of `text`, or "".
std::string field(const std::string& text, const std::string& key) {
  for (std::size_t from = 0; from < text.size();) {
    const std::size_t end = std::min(text.find('\n', from), text.size());
    if (text.compare(from, key.size() + 1, key + " ") == 0) return text.substr(from + key.size() + 1, end - from - key.size() - 1);
    from = end + 1;
  }
  return {};
}

// "pid N, started T" as the holder wrote it in the lock file (it may not have written it yet).
std::string holder_of(int fd) {
  char buffer[256];
  const ssize_t n = ::pread(fd, buffer, sizeof buffer, 0);
  const std::string text = n > 0 ? std::string(buffer, static_cast<std::size_t>(n)) : std::string();
  const std::string pid = field(text, "pid");
  const std::string started = field(text, "started");
  if (pid.empty() || pid.find_first_not_of("0123456789") != std::string::npos) return "pid not yet written in its lock file";
  return started.empty() ? fmt::format("pid {}", pid) : fmt::format("pid {}, started {}", pid, started);
}

core::Error refusal(const std::string& db_path, int fd) {
  return core::usage_error(fmt::format("{} is being written by another gpuvet ({}); refusing to write it too", db_path, holder_of(fd)));
}

bool same_file(int fd, const std::string& path) {
  struct stat held {}, named {};
  return ::fstat(fd, &held) == 0 && ::stat(path.c_str(), &named) == 0 && held.st_dev == named.st_dev && held.st_ino == named.st_ino;
}

// Writes `text` over the file's content: first the bytes, then the length, so a reader never sees
// it empty.
void write_holder(int fd, const std::string& text) {
  if (::pwrite(fd, text.data(), text.size(), 0) == static_cast<ssize_t>(text.size())) {
    (void)::ftruncate(fd, static_cast<off_t>(text.size()));
  }
}

}  // namespace

std::string WriterLock::lock_path(const std::string& db_path) { return db_path + ".lock"; }

core::Result<std::unique_ptr<WriterLock>> WriterLock::acquire(const std::string& db_path, std::int64_t now_unix_ms) {
  const std::string path = lock_path(db_path);
  // A holder that ends removes the name while it still holds the lock: a lock won on that removed
  // file guards nothing, so it is taken again on the file the name holds now.
  constexpr int kAttempts = 5;
  for (int attempt = 0; attempt < kAttempts; ++attempt) {
    const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
    if (fd < 0) {
      const int e = errno;
      return core::environment_error(fmt::format("{}: cannot create the lock file of the database {}: {}", path, db_path, os_reason(e)));
    }
    struct flock l = whole_file(F_WRLCK);
    if (::fcntl(fd, F_OFD_SETLK, &l) != 0) {
      const int e = errno;
      core::Error error = e == EAGAIN || e == EACCES
                              ? refusal(db_path, fd)
                              : core::environment_error(fmt::format("{}: cannot lock the database {}: {}", path, db_path, os_reason(e)));
      ::close(fd);
      return error;
    }
    if (same_file(fd, path)) {
      write_holder(fd, fmt::format("pid {}\nstarted {}\n", ::getpid(), utc_text(now_unix_ms)));
      return std::unique_ptr<WriterLock>(new WriterLock(fd, path));
    }
    ::close(fd);
  }
  return core::environment_error(fmt::format("{}: the lock file of {} kept being replaced while it was locked", path, db_path));
}

std::optional<core::Error> WriterLock::check_free(const std::string& db_path) {
  const int fd = ::open(lock_path(db_path).c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
  if (fd < 0) return std::nullopt;  // no lock file, no writer (or one acquire() will name)
  struct flock l = whole_file(F_WRLCK);
  std::optional<core::Error> out;
  if (::fcntl(fd, F_OFD_GETLK, &l) == 0 && l.l_type != F_UNLCK) out = refusal(db_path, fd);
  ::close(fd);
  return out;
}

WriterLock::~WriterLock() {
  // Removed while still locked, and only when the name is still this file.
  if (same_file(fd_, path_)) ::unlink(path_.c_str());
  ::close(fd_);
}

}  // namespace gpuvet::telemetry
