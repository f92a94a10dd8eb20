// The GEMM stress backend's factory in a build without the CUDA toolkit.
#include "backends/cuda/gemm_stress.hpp"

namespace gpuvet::cuda {

core::Result<std::unique_ptr<api::StressBackend>> make_gemm_stress_backend() {
  return core::environment_error(
      "GEMM load: this gpuvet was built without the CUDA toolkit (rebuild where nvcc is installed, or use --sim PROFILE)");
}

}  // namespace gpuvet::cuda
