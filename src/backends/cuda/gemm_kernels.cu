// Device helpers of the GEMM stress: seeded fill, word-by-word comparison, reference products
// (included by kernels.cu; launched by gemm_kernels.cpp).
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstddef>
#include <cstdint>

#include "backends/cuda/kernel_abi.hpp"

namespace gpuvet::cuda::gemm_device {

using gemm::Elem;

__device__ __host__ inline std::uint64_t mix(std::uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ULL;
  x ^= x >> 33;
  return x;
}

__device__ inline double load(const void* p, std::size_t i, Elem e) {
  switch (e) {
    case Elem::bf16: return static_cast<double>(__bfloat162float(static_cast<const __nv_bfloat16*>(p)[i]));
    case Elem::fp16: return static_cast<double>(__half2float(static_cast<const __half*>(p)[i]));
    case Elem::fp32: return static_cast<double>(static_cast<const float*>(p)[i]);
    case Elem::fp64: return static_cast<const double*>(p)[i];
  }
  return 0.0;
}

extern "C" {

__global__ void gpuvet_gemm_fill(void* data, std::size_t count, Elem e, std::uint64_t seed) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride) {
    const double v = static_cast<double>(mix(seed ^ (i * 0x9e3779b97f4a7c15ULL)) >> 11) * (2.0 / 9007199254740992.0) - 1.0;
    switch (e) {
      case Elem::bf16: static_cast<__nv_bfloat16*>(data)[i] = __float2bfloat16(static_cast<float>(v)); break;
      case Elem::fp16: static_cast<__half*>(data)[i] = __float2half(static_cast<float>(v)); break;
      case Elem::fp32: static_cast<float*>(data)[i] = static_cast<float>(v); break;
      case Elem::fp64: static_cast<double*>(data)[i] = v; break;
    }
  }
}

__global__ void gpuvet_gemm_mismatch(const std::uint32_t* a, const std::uint32_t* b, std::size_t words,
                                     unsigned long long* counter) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  unsigned long long bad = 0;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < words; i += stride) {
    bad += a[i] != b[i] ? 1ULL : 0ULL;
  }
  if (bad) atomicAdd(counter, bad);
}

__global__ void gpuvet_gemm_reference(const void* a, const void* b, int n, Elem e, const int* rows, const int* cols,
                                      int samples, double* out) {
  const int s = blockIdx.x * blockDim.x + threadIdx.x;
  if (s >= samples) return;
  double sum = 0.0;
  const std::size_t ld = static_cast<std::size_t>(n);
  for (int k = 0; k < n; ++k) {
    sum += load(a, static_cast<std::size_t>(rows[s]) + static_cast<std::size_t>(k) * ld, e) *
           load(b, static_cast<std::size_t>(k) + static_cast<std::size_t>(cols[s]) * ld, e);
  }
  out[s] = sum;
}

}  // extern "C"

}  // namespace gpuvet::cuda::gemm_device
