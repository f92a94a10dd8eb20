// Copy and memory measurements with the CUDA runtime (work in progress this session).
#include "backends/cuda/cuda_backends.hpp"

namespace gpuvet::cuda {

core::Result<std::unique_ptr<api::CopyBackend>> make_copy_backend() {
  return core::environment_error("copy measurements: not implemented yet");
}

}  // namespace gpuvet::cuda
