// Factories of the CUDA backend. In a build without the CUDA toolkit each returns an
// environment error saying so (cuda_unavailable.cpp), so callers need no #ifdef.
#pragma once

#include <memory>

#include "backends/api/copy_backend.hpp"
#include "core/error.hpp"

namespace gpuvet::cuda {

// Whether this binary was built with the CUDA probes.
bool built_with_cuda();

// Copies and memory on the GPUs the CUDA runtime sees. Environment error when there is no
// driver or no GPU, naming what the runtime said.
core::Result<std::unique_ptr<api::CopyBackend>> make_copy_backend();

}  // namespace gpuvet::cuda
