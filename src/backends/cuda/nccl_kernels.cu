// Pattern fill and wrong-element count for the NCCL collective backend (see nccl_kernels.hpp;
// included by kernels.cu; launched by nccl_kernels.cpp).
#include <cstddef>
#include <cstdint>

#include "backends/cuda/kernel_abi.hpp"

namespace gpuvet::cuda::nccl_device {

__device__ __forceinline__ float pattern(int rank, std::size_t i) { return static_cast<float>(rank + 1 + static_cast<int>(i % 7)); }

__device__ float expected(CheckOp op, int rank, int ranks, std::size_t block, std::size_t i) {
  switch (op) {
    case CheckOp::all_reduce: {
      float sum = 0;
      for (int r = 0; r < ranks; ++r) sum += pattern(r, i);
      return sum;
    }
    case CheckOp::all_gather: return pattern(static_cast<int>(i / block), i % block);
    case CheckOp::reduce_scatter: {
      float sum = 0;
      for (int r = 0; r < ranks; ++r) sum += pattern(r, static_cast<std::size_t>(rank) * block + i);
      return sum;
    }
    case CheckOp::alltoall: return pattern(static_cast<int>(i / block), static_cast<std::size_t>(rank) * block + i % block);
    case CheckOp::broadcast: return pattern(0, i);
    case CheckOp::sendrecv: return pattern((rank - 1 + ranks) % ranks, i);
  }
  return 0;
}

extern "C" {

__global__ void gpuvet_nccl_fill(float* buffer, std::size_t count, int rank, std::size_t offset) {
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    buffer[i] = pattern(rank, offset + i);
  }
}

__global__ void gpuvet_nccl_check(const float* output, std::size_t count, CheckOp op, int rank, int ranks,
                                  std::size_t block, unsigned long long* wrong) {
  unsigned long long mine = 0;
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    if (output[i] != expected(op, rank, ranks, block, i)) ++mine;
  }
  if (mine != 0) atomicAdd(wrong, mine);
}

}  // extern "C"

}  // namespace gpuvet::cuda::nccl_device
