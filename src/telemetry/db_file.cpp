// Opening burn-in database files: the checks, the exclusive create and the private copy.
#include "telemetry/db_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <system_error>
#include <vector>

#include <fmt/format.h>

namespace gpuvet::telemetry {

namespace fs = std::filesystem;

namespace {

std::string os_reason(int error) { return std::error_code(error, std::generic_category()).message(); }

const char* kind_of(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISCHR(mode) || S_ISBLK(mode)) return "a device";
  return "not a regular file";
}

// Closes a file descriptor when it leaves scope.
struct Fd {
  int fd = -1;
  explicit Fd(int f) : fd(f) {}
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
};

// Opens for reading without blocking (a FIFO would wait for a writer) and checks it is a regular
// file. Returns the descriptor, or -1 with `error` set.
int open_regular(const std::string& path, std::optional<core::Error>& error) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) {
    const int e = errno;
    error = core::input_error(e == ENOENT ? fmt::format("{}: no such file", path)
                                          : fmt::format("{}: cannot open: {}", path, os_reason(e)));
    return -1;
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    error = core::input_error(fmt::format("{}: {}, not a gpuvet history database (burn-in or monitor)", path, kind_of(st.st_mode)));
    ::close(fd);
    return -1;
  }
  return fd;
}

// What changes when a writer touches a file: identity, size and modification time.
struct Stamp {
  bool exists = false;
  dev_t dev = 0;
  ino_t ino = 0;
  off_t size = 0;
  long long mtime_ns = 0;
  bool operator==(const Stamp&) const = default;
};

Stamp stamp_of(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return {};
  return {true, st.st_dev, st.st_ino, st.st_size, static_cast<long long>(st.st_mtim.tv_sec) * 1'000'000'000 + st.st_mtim.tv_nsec};
}

std::vector<Stamp> stamps_of(const std::string& path) {
  std::vector<Stamp> out{stamp_of(path)};
  for (const char* suffix : kDatabaseSidecars) out.push_back(stamp_of(path + suffix));
  return out;
}

// Copies `from` to the new file `to`; a `from` that has vanished (a sidecar removed by the writer's
// checkpoint) is skipped when `optional`.
std::optional<core::Error> copy_file(const std::string& from, const fs::path& to, bool optional) {
  std::optional<core::Error> error;
  Fd in(open_regular(from, error));
  if (in.fd < 0) {
    if (optional && !fs::exists(from)) return std::nullopt;
    return error;
  }
  Fd out(::open(to.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600));
  if (out.fd < 0) return core::environment_error(fmt::format("{}: cannot create: {}", to.string(), os_reason(errno)));
  std::vector<char> buffer(1u << 20);
  while (true) {
    const ssize_t n = ::read(in.fd, buffer.data(), buffer.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return core::input_error(fmt::format("{}: read error: {}", from, os_reason(errno)));
    if (n == 0) return std::nullopt;
    for (ssize_t done = 0; done < n;) {
      const ssize_t w = ::write(out.fd, buffer.data() + done, static_cast<std::size_t>(n - done));
      if (w < 0 && errno == EINTR) continue;
      if (w < 0) return core::environment_error(fmt::format("{}: write error: {}", to.string(), os_reason(errno)));
      done += w;
    }
  }
}

}  // namespace

std::optional<core::Error> check_readable_file(const std::string& path) {
  std::optional<core::Error> error;
  Fd fd(open_regular(path, error));
  return error;
}

bool has_sidecar(const std::string& path) {
  std::error_code ec;
  for (const char* suffix : kDatabaseSidecars) {
    if (fs::exists(fs::symlink_status(path + suffix, ec))) return true;
  }
  return false;
}

std::optional<core::Error> create_exclusively(const std::string& path) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0644);
  if (fd < 0) {
    const int e = errno;
    if (e == EEXIST) {
      return core::usage_error(fmt::format("{}: already exists (burn-in never overwrites a database; choose another --db)", path));
    }
    return core::environment_error(fmt::format("{}: cannot create the database: {}", path, os_reason(e)));
  }
  ::close(fd);
  // Checked once the name is ours: before, a run that won the name an instant earlier has its own
  // -wal there already.
  for (const char* suffix : kDatabaseSidecars) {
    std::error_code ec;
    if (fs::exists(fs::symlink_status(path + suffix, ec))) {
      ::unlink(path.c_str());  // ours, still empty
      return core::usage_error(fmt::format("{}{} exists (left by an earlier database of that name, which SQLite would "
                                           "replay into a new one): move it away or choose another --db",
                                           path, suffix));
    }
  }
  return std::nullopt;
}

core::Result<std::unique_ptr<PrivateCopy>> PrivateCopy::make(const std::string& path) {
  std::error_code ec;
  const fs::path temp = fs::temp_directory_path(ec);
  if (ec) return core::environment_error(fmt::format("no temporary directory to read {} in: {}", path, ec.message()));
  // A writer that checkpoints between two of the copies would pair an old database with a new
  // log: copy again until nothing changed during the copy.
  constexpr int kAttempts = 5;
  for (int attempt = 0; attempt < kAttempts; ++attempt) {
    std::string pattern = (temp / "gpuvet-db-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) {
      return core::environment_error(fmt::format("{}: cannot create a temporary directory: {}", pattern, os_reason(errno)));
    }
    std::unique_ptr<PrivateCopy> copy(new PrivateCopy(pattern));
    const auto before = stamps_of(path);
    if (auto e = copy_file(path, copy->database(), false)) return *e;
    for (const char* suffix : kDatabaseSidecars) {
      if (auto e = copy_file(path + suffix, copy->database() + suffix, true)) return *e;
    }
    if (stamps_of(path) == before) return copy;
  }
  return core::input_error(fmt::format("{}: the database kept changing while it was read (is a burn-in still writing it?)", path));
}

PrivateCopy::~PrivateCopy() {
  std::error_code ec;
  fs::remove_all(dir_, ec);
}

std::string immutable_uri(const std::string& path) {
  std::error_code ec;
  fs::path absolute = fs::absolute(path, ec);
  if (ec) absolute = path;
  std::string out = "file://";
  // '/' starts the path, so it is never "file://host/..."; everything but unreserved bytes escaped.
  if (absolute.string().empty() || absolute.string().front() != '/') out += '/';
  for (const unsigned char c : absolute.string()) {
    if (std::isalnum(c) || c == '/' || c == '-' || c == '_' || c == '.' || c == '~') {
      out += static_cast<char>(c);
    } else {
      out += fmt::format("%{:02X}", c);
    }
  }
  return out + "?immutable=1";
}

}  // namespace gpuvet::telemetry
