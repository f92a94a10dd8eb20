// getenv / gethostname wrappers.
#include "platform/environment.hpp"

#include <unistd.h>

#include <cstdlib>

namespace gpuvet::platform {

std::optional<std::string> env(const char* name) {
  const char* value = std::getenv(name);
  if (value == nullptr || *value == '\0') return std::nullopt;
  return std::string(value);
}

std::string hostname() {
  char buf[256] = {};
  if (gethostname(buf, sizeof buf - 1) != 0) return "";
  return buf;
}

}  // namespace gpuvet::platform
