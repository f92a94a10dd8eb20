// RDMA NICs (InfiniBand and RoCE) from /sys/class/infiniband: port rate, state, link layer, and
// where the NIC sits on the PCI bus.
#pragma once

#include <vector>

#include "core/machine.hpp"
#include "platform/fs_root.hpp"

namespace gpuvet::sysfs {

inline constexpr const char* kInfinibandDir = "/sys/class/infiniband";

// One Nic per RDMA device, in natural name order (mlx5_2 before mlx5_10), labelled NIC0, NIC1, ...
// as nvidia-smi topo -m labels them; name is the device ("mlx5_0"). Values come from the
// lowest-numbered port. The rate of a DOWN port is absent: the kernel keeps printing a
// placeholder rate (often "10 Gb/sec (4X SDR)") for ports without a link. gpu_proximity is
// absent here (it needs the machine's GPU list: enrich_machine fills it).
// Absent (with reason) when /sys/class/infiniband does not exist.
core::Reading<std::vector<core::Nic>> read_nics(const platform::FsRoot& root);

// Natural order of device names: digit runs compare as numbers.
bool natural_less(const std::string& a, const std::string& b);

}  // namespace gpuvet::sysfs
