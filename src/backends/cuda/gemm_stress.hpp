// Factory of the cuBLAS GEMM stress backend (gemm_stress_cuda.cpp; gemm_unavailable.cpp in a
// build without the CUDA toolkit, so callers need no #ifdef).
#pragma once

#include <memory>

#include "backends/api/stress_backend.hpp"
#include "core/error.hpp"

namespace gpuvet::cuda {

// GEMM load on the GPUs the CUDA runtime sees, through cuBLASLt loaded with dlopen
// (libcublasLt.so.13, then .12). Environment error when there is no driver, no GPU or no cuBLAS.
// GPU indices are NVML's: each is matched to its CUDA device by PCI bus id.
core::Result<std::unique_ptr<api::StressBackend>> make_gemm_stress_backend();

}  // namespace gpuvet::cuda
