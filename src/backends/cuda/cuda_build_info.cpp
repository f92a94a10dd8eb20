// This build has the CUDA probes.
#include "backends/cuda/cuda_backends.hpp"

namespace gpuvet::cuda {

bool built_with_cuda() { return true; }

}  // namespace gpuvet::cuda
