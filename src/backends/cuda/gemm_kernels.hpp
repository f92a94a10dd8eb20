// Device helpers of the GEMM stress (gemm_kernels.cu): fill matrices with seeded values, count
// words that differ from the golden result, and a plain reference product for sampled elements.
// Internal to the CUDA backend; every launch goes to the given stream.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace gpuvet::cuda::gemm {

enum class Elem { bf16, fp16, fp32, fp64 };
std::size_t elem_size(Elem e);

// Values uniform in [-1, 1) from a hash of (seed, index), stored as `e`.
cudaError_t fill_random(void* data, std::size_t count, Elem e, std::uint64_t seed, cudaStream_t stream);
// Adds to *device_counter the number of 32-bit words of `bytes` (a multiple of 4) that differ.
cudaError_t count_mismatches(const void* a, const void* b, std::size_t bytes, unsigned long long* device_counter,
                             cudaStream_t stream);
// out[s] = sum_k A[rows[s] + k*n] * B[k + cols[s]*n] in double (column-major n x n), for
// `samples` (row, col) pairs in device memory.
cudaError_t reference_samples(const void* a, const void* b, int n, Elem e, const int* rows, const int* cols, int samples,
                              double* out, cudaStream_t stream);
// One element of a host copy of a matrix, as double.
double element_value(const void* host_data, std::size_t index, Elem e);

}  // namespace gpuvet::cuda::gemm
