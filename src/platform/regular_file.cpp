#include "platform/regular_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <system_error>
#include <utility>

#include <fmt/format.h>

namespace gpuvet::platform {

namespace {
std::string os_reason(int error) { return std::error_code(error, std::generic_category()).message(); }
}  // namespace

core::Result<RegularFile> RegularFile::open(const std::filesystem::path& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) return core::input_error(fmt::format("cannot read {}: {}", path.string(), os_reason(errno)));
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    return core::input_error(fmt::format("cannot read {}: not a regular file", path.string()));
  }
  return RegularFile(fd, static_cast<std::uint64_t>(st.st_size), path);
}

RegularFile::RegularFile(RegularFile&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)), size_(other.size_), path_(std::move(other.path_)) {}

RegularFile& RegularFile::operator=(RegularFile&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = std::exchange(other.fd_, -1);
    size_ = other.size_;
    path_ = std::move(other.path_);
  }
  return *this;
}

RegularFile::~RegularFile() {
  if (fd_ >= 0) ::close(fd_);
}

core::Result<std::size_t> RegularFile::read(void* buffer, std::size_t capacity) {
  while (true) {
    const ssize_t n = ::read(fd_, buffer, capacity);
    if (n >= 0) return static_cast<std::size_t>(n);
    if (errno != EINTR) return core::input_error(fmt::format("error reading {}: {}", path_.string(), os_reason(errno)));
  }
}

core::Result<std::string> read_regular_file(const std::filesystem::path& path, std::size_t max_bytes,
                                            const std::string& what_may_have) {
  auto file = RegularFile::open(path);
  if (!file.ok()) return file.error();
  if (file.value().size() > max_bytes) {
    return core::input_error(
        fmt::format("{}: {} bytes, more than the {} {}", path.string(), file.value().size(), max_bytes, what_may_have));
  }
  std::string content(static_cast<std::size_t>(file.value().size()), '\0');
  std::size_t done = 0;
  while (done < content.size()) {
    auto n = file.value().read(content.data() + done, content.size() - done);
    if (!n.ok()) return n.error();
    if (n.value() == 0) break;  // shrank while read: a digest check tells
    done += n.value();
  }
  content.resize(done);
  return content;
}

}  // namespace gpuvet::platform
