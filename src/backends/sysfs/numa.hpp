// NUMA nodes and their CPUs from /sys/devices/system/node/node<N>/cpulist.
#pragma once

#include <vector>

#include "core/machine.hpp"
#include "platform/fs_root.hpp"

namespace gpuvet::sysfs {

inline constexpr const char* kNumaNodeDir = "/sys/devices/system/node";

// Nodes ordered by id. A node without CPUs (memory-only, e.g. GPU memory exposed as NUMA memory
// on Grace Hopper) has a known, empty cpus list. Absent when the node directory is missing
// (kernel without NUMA) or lists no node.
core::Reading<std::vector<core::NumaNode>> read_numa_nodes(const platform::FsRoot& root);

}  // namespace gpuvet::sysfs
