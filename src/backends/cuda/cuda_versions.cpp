// `gpuvet --version`'s view of the CUDA libraries on this machine (built with or without nvcc:
// none of these needs the toolkit).
#include <fmt/format.h>

#include "backends/cuda/cublas_library.hpp"
#include "backends/cuda/cuda_backends.hpp"
#include "backends/cuda/cuda_driver.hpp"
#include "backends/cuda/nccl_library.hpp"
#include "platform/environment.hpp"

namespace gpuvet::cuda {

std::vector<VersionLine> runtime_versions() {
  std::vector<VersionLine> lines;
  int driver_cuda = 0;
  if (auto driver = driver::Driver::load(driver::default_library_name())) {
    driver_cuda = (*driver)->cuda_version();
    std::string detail = fmt::format("{}, {}", (*driver)->describe_version(), (*driver)->name());
    if (driver_cuda < driver::kMinimumCudaVersion) {
      detail += fmt::format(": too old for the CUDA probes (they need CUDA {})", driver::cuda_version_text(driver::kMinimumCudaVersion));
    }
    lines.push_back({"CUDA driver", detail});
  } else {
    lines.push_back({"CUDA driver", "not found (" + driver.error().message + ")"});
  }
  const std::string nccl_name = platform::env("GPUVET_NCCL_LIBRARY").value_or("libnccl.so.2");
  if (auto nccl = nccl::Library::load(nccl_name)) {
    lines.push_back({"NCCL", fmt::format("{} ({})", (*nccl)->version(), (*nccl)->name())});
  } else {
    lines.push_back({"NCCL", "not found (" + nccl.error().message + ")"});
  }
  if (auto cublas = cublas::Library::load(driver_cuda)) {
    lines.push_back({"cuBLAS", fmt::format("{} ({})", (*cublas)->version(), (*cublas)->name())});
  } else {
    lines.push_back({"cuBLAS", "not found (" + cublas.error().message + ")"});
  }
  return lines;
}

}  // namespace gpuvet::cuda
