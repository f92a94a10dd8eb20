// Device helpers of the GEMM stress (gemm_kernels.cu, in the embedded fatbin): fill matrices
// with seeded values, count words that differ from the golden result, and a plain reference
// product for sampled elements. Internal to the CUDA backend; the GPU's context must be current
// on the calling thread and every launch goes to the given stream.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>

#include "backends/cuda/cuda_context.hpp"
#include "backends/cuda/kernel_abi.hpp"

namespace gpuvet::cuda::gemm {

std::size_t elem_size(Elem e);

// Values uniform in [-1, 1) from a hash of (seed, index), stored as `e`.
std::optional<core::Error> fill_random(Gpu& gpu, driver::CUdeviceptr data, std::size_t count, Elem e, std::uint64_t seed,
                                       driver::CUstream stream);
// Adds to *device_counter the number of 32-bit words of `bytes` (a multiple of 4) that differ.
std::optional<core::Error> count_mismatches(Gpu& gpu, driver::CUdeviceptr a, driver::CUdeviceptr b, std::size_t bytes,
                                            driver::CUdeviceptr device_counter, driver::CUstream stream);
// out[s] = sum_k A[rows[s] + k*n] * B[k + cols[s]*n] in double (column-major n x n), for
// `samples` (row, col) pairs in device memory.
std::optional<core::Error> reference_samples(Gpu& gpu, driver::CUdeviceptr a, driver::CUdeviceptr b, int n, Elem e,
                                             driver::CUdeviceptr rows, driver::CUdeviceptr cols, int samples,
                                             driver::CUdeviceptr out, driver::CUstream stream);
// One element of a host copy of a matrix, as double.
double element_value(const void* host_data, std::size_t index, Elem e);

}  // namespace gpuvet::cuda::gemm
