// Reading a file that must be a plain regular file (bundle contents, digests): opened without
// following a symbolic link and without blocking on a FIFO, refused when it is anything else.
// Files the user names on the command line go through user_file.hpp instead (pipes allowed).
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>

#include "core/error.hpp"

namespace gpuvet::platform {

class RegularFile {
 public:
  // Errors (bad_input) name the path: "cannot read P: <reason>" / "cannot read P: not a regular file".
  static core::Result<RegularFile> open(const std::filesystem::path& path);

  RegularFile(RegularFile&& other) noexcept;
  RegularFile& operator=(RegularFile&& other) noexcept;
  RegularFile(const RegularFile&) = delete;
  RegularFile& operator=(const RegularFile&) = delete;
  ~RegularFile();

  // Size when opened.
  [[nodiscard]] std::uint64_t size() const { return size_; }
  // Up to `capacity` bytes into `buffer`; 0 at the end of the file. Retries on EINTR.
  core::Result<std::size_t> read(void* buffer, std::size_t capacity);

 private:
  RegularFile(int fd, std::uint64_t size, std::filesystem::path path) : fd_(fd), size_(size), path_(std::move(path)) {}
  int fd_ = -1;
  std::uint64_t size_ = 0;
  std::filesystem::path path_;
};

// The whole file, refused when larger than `max_bytes` (error says `what_may_have`, e.g. "a gpuvet
// bundle file may have"). A file that shrinks while read is returned as read.
core::Result<std::string> read_regular_file(const std::filesystem::path& path, std::size_t max_bytes,
                                            const std::string& what_may_have);

}  // namespace gpuvet::platform
