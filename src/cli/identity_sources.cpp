// Gathers the identity of the machine an accept run judged (live or simulated).
#include "cli/identity_sources.hpp"

#include <algorithm>

#include "backends/cuda/cuda_backends.hpp"
#include "backends/sim/sim_state.hpp"
#include "platform/host_software.hpp"

namespace gpuvet::cli {

namespace {

struct SoftwareKey {
  const char* key;
  const char* title;
};
// The host software in the order reports list it (after driver and CUDA driver API).
constexpr SoftwareKey kHostSoftware[] = {{"cuda_toolkit", "CUDA toolkit (gpuvet's kernels)"},
                                         {"nccl", "NCCL"},
                                         {"cublas", "cuBLAS"},
                                         {"fabric_manager", "NVIDIA fabric manager"},
                                         {"kernel", "Linux kernel"},
                                         {"os", "Operating system"}};

// "not found (why)" from cuda::runtime_versions() is an absence with that reason.
core::SoftwareVersion from_version_line(const SoftwareKey& k, const std::vector<cuda::VersionLine>& lines,
                                        const char* component, const std::string& source) {
  for (const auto& line : lines) {
    if (line.component != component) continue;
    if (line.detail.rfind("not found", 0) == 0 || line.detail.rfind("not built", 0) == 0) {
      return {k.key, k.title, core::Reading<std::string>::absent(line.detail), source};
    }
    return {k.key, k.title, line.detail, source};
  }
  return {k.key, k.title, core::Reading<std::string>::absent(std::string(component) + " not queried"), source};
}

std::vector<core::SoftwareVersion> simulated_software(const std::string& profile) {
  std::vector<core::SoftwareVersion> out;
  auto state = sim::build_simulation(profile, {});
  const std::string source = "simulator profile " + profile;
  for (const auto& k : kHostSoftware) {
    core::Reading<std::string> value = core::Reading<std::string>::absent("not stated by simulator profile " + profile);
    if (!state) {
      value = core::Reading<std::string>::absent(state.error().message);
    } else {
      const auto& sw = state->profile.software;
      auto it = std::find_if(sw.begin(), sw.end(), [&](const auto& kv) { return kv.first == k.key; });
      if (it != sw.end()) value = it->second + " (simulated)";
    }
    out.push_back({k.key, k.title, value, source});
  }
  return out;
}

std::vector<core::SoftwareVersion> live_software(const std::string& sysfs_root) {
  std::vector<core::SoftwareVersion> out;
  const auto runtime = cuda::runtime_versions();
  const auto build = cuda::build_versions();
  auto toolkit = from_version_line(kHostSoftware[0], build, "CUDA kernels", "gpuvet build");
  if (toolkit.value) toolkit.value = toolkit.value->substr(0, toolkit.value->find(':'));  // "nvcc 13.0.88": the rest lists SASS targets
  out.push_back(std::move(toolkit));
  out.push_back(from_version_line(kHostSoftware[1], runtime, "NCCL", "libnccl.so.2 (ncclGetVersion)"));
  out.push_back(from_version_line(kHostSoftware[2], runtime, "cuBLAS", "libcublas (cublasGetProperty)"));
  const platform::FsRoot root(sysfs_root);
  out.push_back(platform::read_fabric_manager_version(root));
  out.push_back(platform::read_kernel_version(root));
  out.push_back(platform::read_os_version(root));
  return out;
}

}  // namespace

core::MachineIdentity gather_identity(const core::Machine& machine, const std::string& sim_profile,
                                      const std::string& sysfs_root) {
  return core::identity_of(machine, sim_profile.empty() ? live_software(sysfs_root) : simulated_software(sim_profile));
}

}  // namespace gpuvet::cli
