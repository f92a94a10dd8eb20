// Process environment lookups (injected so tests can point NVML at a fake library).
#pragma once

#include <optional>
#include <string>

namespace gpuvet::platform {

std::optional<std::string> env(const char* name);
std::string hostname();

}  // namespace gpuvet::platform
