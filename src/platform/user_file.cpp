// read_user_file: bounded whole-file read with errors that name the file.
#include "platform/user_file.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace gpuvet::platform {

core::Result<std::string> read_user_file(const std::string& path, std::size_t max_bytes) {
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
  std::ostringstream out;
  out << in.rdbuf();
  if (in.bad()) return core::input_error(path + ": read error");
  return out.str();
}

}  // namespace gpuvet::platform
