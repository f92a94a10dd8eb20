// This build has the CUDA probes: what they were built with, read from the embedded fatbin and
// the toolkit headers CMake found (cmake/GpuvetCuda.cmake).
#include <fmt/format.h>

#include "backends/cuda/cuda_backends.hpp"
#include "backends/cuda/cuda_driver.hpp"
#include "backends/cuda/embedded_kernels.hpp"

namespace gpuvet::cuda {

bool built_with_cuda() { return true; }

std::vector<VersionLine> build_versions() {
  const auto images = list_fatbin(embedded_fatbin(), embedded_fatbin_size());
  return {
      {"CUDA kernels", fmt::format("nvcc {}: {} ({} KiB embedded)", kernel_toolkit_version(), describe_fatbin(images),
                                   embedded_fatbin_size() / 1024)},
      {"CUDA driver API", fmt::format("loaded at run time (libcuda.so.1), needs CUDA {} (driver {}) or later",
                                      driver::cuda_version_text(driver::kMinimumCudaVersion), driver::kMinimumDriver)},
      {"NCCL", fmt::format("loaded at run time (libnccl.so.2); nccl.h at build time: {}", GPUVET_NCCL_HEADER_VERSION)},
      {"cuBLAS", fmt::format("loaded at run time (libcublas.so.13 or .12); cublas_api.h at build time: {}",
                             GPUVET_CUBLAS_HEADER_VERSION)},
  };
}

}  // namespace gpuvet::cuda
