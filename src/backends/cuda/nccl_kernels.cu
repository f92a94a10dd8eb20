// Pattern fill and wrong-element count for the NCCL collective backend (see nccl_kernels.hpp).
#include <cuda_runtime.h>

#include "backends/cuda/nccl_kernels.hpp"

namespace gpuvet::cuda {
namespace {

__device__ __forceinline__ float pattern(int rank, std::size_t i) { return static_cast<float>(rank + 1 + static_cast<int>(i % 7)); }

__global__ void fill_kernel(float* buffer, std::size_t count, int rank, std::size_t offset) {
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    buffer[i] = pattern(rank, offset + i);
  }
}

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

__global__ void check_kernel(const float* output, std::size_t count, CheckOp op, int rank, int ranks,
                             std::size_t block, unsigned long long* wrong) {
  unsigned long long mine = 0;
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    if (output[i] != expected(op, rank, ranks, block, i)) ++mine;
  }
  if (mine != 0) atomicAdd(wrong, mine);
}

constexpr int kThreads = 256;
constexpr int kBlocks = 1024;

}  // namespace

int launch_fill(float* buffer, std::size_t count, int rank, std::size_t offset, CUstream_st* stream) {
  if (count == 0) return 0;
  fill_kernel<<<kBlocks, kThreads, 0, stream>>>(buffer, count, rank, offset);
  return static_cast<int>(cudaGetLastError());
}

int launch_check(const float* output, std::size_t count, CheckOp op, int rank, int ranks, std::size_t block,
                 unsigned long long* wrong, CUstream_st* stream) {
  if (count == 0) return 0;
  check_kernel<<<kBlocks, kThreads, 0, stream>>>(output, count, op, rank, ranks, block, wrong);
  return static_cast<int>(cudaGetLastError());
}

}  // namespace gpuvet::cuda
