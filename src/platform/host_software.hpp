// The host's software versions that an acceptance names beside the GPUs: kernel, operating
// system and NVIDIA fabric manager, read from files under an FsRoot (so tests point it at a
// fixture tree). Read-only; never runs a program. Called once per accept run, main thread.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/machine_identity.hpp"
#include "platform/fs_root.hpp"

namespace gpuvet::platform {

// Kernel release from /proc/sys/kernel/osrelease (what `uname -r` prints).
core::SoftwareVersion read_kernel_version(const FsRoot& root);
// PRETTY_NAME of /etc/os-release (or /usr/lib/os-release), else NAME and VERSION.
core::SoftwareVersion read_os_version(const FsRoot& root);
// The installed fabric manager: the version of an installed nvidia-fabricmanager package in
// /var/lib/dpkg/status, else the "Fabric Manager version X" line of /var/log/fabricmanager.log;
// an nv-fabricmanager binary without either is "installed, version not found"; none of them is
// absent with "no fabric manager found".
core::SoftwareVersion read_fabric_manager_version(const FsRoot& root);
// kernel, os, fabric_manager, in that order.
std::vector<core::SoftwareVersion> read_host_software(const FsRoot& root);

// Parsers of the texts above, exposed for tests. nullopt when the text does not say.
std::optional<std::string> os_release_name(std::string_view os_release);
std::optional<std::string> dpkg_fabric_manager_version(std::string_view dpkg_status);
std::optional<std::string> fabric_manager_log_version(std::string_view log);

}  // namespace gpuvet::platform
