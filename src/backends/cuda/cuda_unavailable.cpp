// The CUDA backend's factories in a build without the CUDA toolkit.
#include "backends/cuda/cuda_backends.hpp"
#include "backends/cuda/cuda_driver.hpp"

namespace gpuvet::cuda {

namespace {
core::Error not_built(const char* what) {
  return core::environment_error(std::string(what) +
                                 ": this gpuvet was built without the CUDA toolkit (rebuild where nvcc is "
                                 "installed, or use --sim PROFILE)");
}
}  // namespace

bool built_with_cuda() { return false; }

core::Result<std::unique_ptr<api::CopyBackend>> make_copy_backend() { return not_built("copy measurements"); }

std::vector<VersionLine> build_versions() {
  return {{"CUDA kernels", "not built (no nvcc at build time): bench, nccl and burnin need --sim"}};
}

}  // namespace gpuvet::cuda
