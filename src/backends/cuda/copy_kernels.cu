// Device code of the copy, latency and VRAM probes (included by kernels.cu; launched by
// copy_kernels.cpp).
#include <cstddef>
#include <cstdint>

namespace gpuvet::cuda::copy_device {

__device__ std::uint64_t global_ns() {
  std::uint64_t t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__device__ std::uint64_t mix(std::uint64_t x) {  // splitmix64 finaliser
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

__device__ std::uint64_t expected_word(std::uint64_t offset, int pattern, std::uint64_t seed) {
  if (pattern == 0) return offset * 8;
  if (pattern == 1) return 1ull << (offset % 64);
  return mix(seed ^ offset);
}

extern "C" {

__global__ void gpuvet_spin(const volatile int* release, std::uint64_t timeout_ns) {
  const std::uint64_t start = global_ns();
  while (*release == 0) {
    if (global_ns() - start > timeout_ns) break;
  }
}

__global__ void gpuvet_copy(int4* dst, const int4* src, std::size_t n) {
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    dst[i] = src[i];
  }
}

__global__ void gpuvet_chase(const std::uint64_t* start, std::uint64_t steps, std::uint64_t* sink) {
  const std::uint64_t* p = start;
  for (std::uint64_t i = 0; i < steps; ++i) p = reinterpret_cast<const std::uint64_t*>(*(volatile const std::uint64_t*)p);
  *sink = reinterpret_cast<std::uint64_t>(p);
}

__global__ void gpuvet_pattern_write(std::uint64_t* base, std::uint64_t words, std::uint64_t offset, int pattern,
                                     std::uint64_t seed) {
  for (std::uint64_t i = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x; i < words;
       i += static_cast<std::uint64_t>(gridDim.x) * blockDim.x) {
    base[i] = expected_word(offset + i, pattern, seed);
  }
}

__global__ void gpuvet_pattern_check(const std::uint64_t* base, std::uint64_t words, std::uint64_t offset, int pattern,
                                     std::uint64_t seed, unsigned long long* result) {
  for (std::uint64_t i = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x; i < words;
       i += static_cast<std::uint64_t>(gridDim.x) * blockDim.x) {
    if (base[i] != expected_word(offset + i, pattern, seed)) {
      atomicAdd(&result[0], 1ull);
      atomicMin(&result[1], static_cast<unsigned long long>(offset + i));
      atomicMax(&result[2], static_cast<unsigned long long>(offset + i));
    }
  }
}

}  // extern "C"

}  // namespace gpuvet::cuda::copy_device
