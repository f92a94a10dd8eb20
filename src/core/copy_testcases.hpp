// nvbandwidth's testcase keys as typed identifiers, for code that picks matrices by testcase
// (the accept clauses, the heatmaps): a misspelt key does not compile. The keys are nvbandwidth's
// own names, so a pasted nvbandwidth log and gpuvet's probe produce the same ones.
#pragma once

#include <string_view>

namespace gpuvet::core::testcase {

inline constexpr std::string_view host_to_device_memcpy_ce = "host_to_device_memcpy_ce";
inline constexpr std::string_view device_to_host_memcpy_ce = "device_to_host_memcpy_ce";
inline constexpr std::string_view device_to_device_memcpy_read_ce = "device_to_device_memcpy_read_ce";
inline constexpr std::string_view device_to_device_memcpy_write_ce = "device_to_device_memcpy_write_ce";

}  // namespace gpuvet::core::testcase
