// The NCCL collective backend in a build without the CUDA toolkit.
#include "backends/cuda/nccl_backend.hpp"

namespace gpuvet::cuda {

core::Result<std::unique_ptr<api::CollectiveBackend>> make_nccl_backend(const std::string&) {
  return core::environment_error(
      "NCCL collectives: this gpuvet was built without the CUDA toolkit (rebuild where nvcc is installed, or "
      "use --sim PROFILE)");
}

}  // namespace gpuvet::cuda
