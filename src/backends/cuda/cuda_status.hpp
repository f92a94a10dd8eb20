// CUDA runtime errors as gpuvet errors (internal to backends/cuda): the operation, the device
// and the runtime's own words.
#pragma once

#include <cuda_runtime.h>

#include <string>

#include "core/error.hpp"

namespace gpuvet::cuda {

// Every runtime failure is an environment error: the driver, the device or its memory said no.
inline core::Error cuda_error(const std::string& what, cudaError_t code) {
  return core::environment_error(what + ": " + cudaGetErrorName(code) + " (" + cudaGetErrorString(code) + ")");
}

}  // namespace gpuvet::cuda
