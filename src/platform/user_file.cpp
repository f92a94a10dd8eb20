// read_user_file: bounded whole-file read with errors that name the file, never blocking for ever.
#include "platform/user_file.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace gpuvet::platform {

namespace {

class Fd {
 public:
  explicit Fd(int fd, bool owned) : fd_(fd), owned_(owned) {}
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd() {
    if (owned_ && fd_ >= 0) ::close(fd_);
  }
  [[nodiscard]] int get() const { return fd_; }

 private:
  int fd_;
  bool owned_;
};

std::string os_reason() { return std::strerror(errno); }

// Waits until `fd` can be read, up to the idle timeout. False on time-out.
bool wait_readable(int fd, std::chrono::milliseconds timeout) {
  pollfd p{fd, POLLIN, 0};
  for (;;) {
    const int r = ::poll(&p, 1, static_cast<int>(timeout.count()));
    if (r < 0 && errno == EINTR) continue;
    return r != 0;
  }
}

core::Result<std::string> read_stream(int fd, bool is_pipe, const std::string& name, const UserFileLimits& limits) {
  std::string text;
  char buffer[1 << 16];
  for (;;) {
    if (is_pipe && !wait_readable(fd, limits.idle_timeout)) {
      return core::input_error(name + ": no data for " + std::to_string(limits.idle_timeout.count() / 1000) +
                               " s (a pipe or FIFO that nothing writes to?)");
    }
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0) {
      if (errno == EINTR || errno == EAGAIN) continue;
      return core::input_error(name + ": read error: " + os_reason());
    }
    if (n == 0) return text;
    text.append(buffer, static_cast<std::size_t>(n));
    if (text.size() > limits.max_bytes) {
      return core::input_error(name + ": more than " + std::to_string(limits.max_bytes) +
                               " bytes, larger than the limit for a file gpuvet reads");
    }
  }
}

}  // namespace

core::Result<std::string> read_user_file(const std::string& path, UserFileLimits limits) {
  const bool from_stdin = path == "-";
  const std::string name = from_stdin ? "<stdin>" : path;
  // O_NONBLOCK: opening a FIFO without a writer would otherwise block before any check.
  const int raw = from_stdin ? STDIN_FILENO : ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (raw < 0) return core::input_error(name + ": cannot open: " + os_reason());
  const Fd fd(raw, !from_stdin);
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) return core::input_error(name + ": cannot stat: " + os_reason());
  if (S_ISDIR(st.st_mode)) return core::input_error(name + ": is a directory, expected a file");
  const bool is_pipe = S_ISFIFO(st.st_mode);
  if (!S_ISREG(st.st_mode) && !is_pipe && !(from_stdin && S_ISCHR(st.st_mode))) {
    return core::input_error(name + ": not a regular file, pipe or FIFO (a device or socket?)");
  }
  if (S_ISREG(st.st_mode) && static_cast<std::size_t>(st.st_size) > limits.max_bytes) {
    return core::input_error(name + ": " + std::to_string(st.st_size) + " bytes, larger than the " +
                             std::to_string(limits.max_bytes) + "-byte limit for a file gpuvet reads");
  }
  return read_stream(fd.get(), is_pipe, name, limits);
}

core::Result<std::string> read_user_file(const std::string& path) { return read_user_file(path, UserFileLimits{}); }

}  // namespace gpuvet::platform
