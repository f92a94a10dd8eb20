// VRAM pattern check on one GPU (internal to backends/cuda).
#pragma once

#include "backends/api/copy_backend.hpp"
#include "backends/cuda/cuda_context.hpp"

namespace gpuvet::cuda {

// Allocates the GPU's free memory minus the reserve in 256 MiB chunks, then for each pattern
// writes every chunk and reads it back. Stops early (keeping what was tested) on timeout.
// Main thread; makes the GPU's context current.
core::Result<core::VramCheck> check_vram(Gpus& gpus, const api::VramRequest& request);

}  // namespace gpuvet::cuda
