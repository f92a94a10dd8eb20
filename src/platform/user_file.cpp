// read_user_file: bounded whole-file read with errors that name the file.
#include "platform/user_file.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>

namespace gpuvet::platform {

namespace {

core::Result<std::string> read_bounded(std::istream& in, const std::string& path, std::size_t max_bytes) {
  // Character devices and pipes report no size: read in chunks and stop past the limit.
  std::string text;
  char buffer[1 << 16];
  while (in.read(buffer, sizeof buffer) || in.gcount() > 0) {
    text.append(buffer, static_cast<std::size_t>(in.gcount()));
    if (text.size() > max_bytes) {
      return core::input_error(path + ": more than " + std::to_string(max_bytes) +
                               " bytes, larger than the limit for pasted tool output");
    }
  }
  if (in.bad()) return core::input_error(path + ": read error");
  return text;
}

}  // namespace

core::Result<std::string> read_user_file(const std::string& path, std::size_t max_bytes) {
  if (path == "-") return read_bounded(std::cin, "<stdin>", max_bytes);
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    return core::input_error(path + ": is a directory, expected a file");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return core::input_error(path + ": cannot open: " + std::strerror(errno));
  const auto size = std::filesystem::file_size(path, ec);
  if (!ec && size > max_bytes) {
    return core::input_error(path + ": " + std::to_string(size) + " bytes, larger than the " +
                             std::to_string(max_bytes) + "-byte limit for pasted tool output");
  }
  return read_bounded(in, path, max_bytes);
}

}  // namespace gpuvet::platform
