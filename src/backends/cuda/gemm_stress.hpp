// Factory of the cuBLAS GEMM stress backend (gemm_stress_cuda.cpp; gemm_unavailable.cpp in a
// build without the CUDA toolkit, so callers need no #ifdef).
#pragma once

#include <memory>

#include "backends/api/stress_backend.hpp"
#include "core/error.hpp"

namespace gpuvet::cuda {

// GEMM load on the GPUs the CUDA driver sees, through cuBLAS loaded with dlopen (libcublas.so.13
// or .12, chosen by the driver's CUDA version). Environment error when there is no driver, the
// driver is older than CUDA 12.0, or there is no GPU or no cuBLAS.
// GPU indices are NVML's: each is matched to its CUDA device by PCI bus id.
core::Result<std::unique_ptr<api::StressBackend>> make_gemm_stress_backend();

}  // namespace gpuvet::cuda
