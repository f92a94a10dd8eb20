// Write-then-verify over all the memory the driver hands out.
#include <fmt/format.h>

#include <chrono>
#include <vector>

#include "backends/cuda/copy_kernels.cuh"
#include "backends/cuda/cuda_status.hpp"
#include "backends/cuda/vram_check_cuda.hpp"

namespace gpuvet::cuda {
namespace {

constexpr std::size_t kChunk = 256ull << 20;
const char* const kPatterns[] = {"address", "walking-ones", "random"};

struct Chunks {
  int device = 0;
  std::vector<void*> ptrs;
  ~Chunks() {
    cudaSetDevice(device);
    for (void* p : ptrs) cudaFree(p);
  }
};

}  // namespace

core::Result<core::VramCheck> check_vram(const api::VramRequest& request) {
  using clock = std::chrono::steady_clock;
  const auto started = clock::now();
  const auto deadline = started + request.timeout;
  if (auto rc = cudaSetDevice(request.gpu); rc != cudaSuccess) return cuda_error(fmt::format("GPU {}: select", request.gpu), rc);
  std::size_t free_bytes = 0;
  std::size_t total_bytes = 0;
  if (auto rc = cudaMemGetInfo(&free_bytes, &total_bytes); rc != cudaSuccess) {
    return cuda_error(fmt::format("GPU {}: memory info", request.gpu), rc);
  }
  core::VramCheck check;
  check.gpu = request.gpu;
  check.total_bytes = static_cast<std::uint64_t>(total_bytes);
  Chunks chunks;
  chunks.device = request.gpu;
  std::size_t allocated = 0;
  while (allocated + kChunk + request.reserve_bytes <= free_bytes) {
    void* p = nullptr;
    if (cudaMalloc(&p, kChunk) != cudaSuccess) {
      cudaGetLastError();  // out of memory ends the allocation, it is not an error of the check
      break;
    }
    chunks.ptrs.push_back(p);
    allocated += kChunk;
  }
  unsigned long long* result = nullptr;
  if (auto rc = cudaMalloc(&result, 3 * sizeof(unsigned long long)); rc != cudaSuccess) {
    return cuda_error(fmt::format("GPU {}: allocate the result counters", request.gpu), rc);
  }
  std::uint64_t tested = allocated;
  for (int pattern = 0; pattern < 3 && !check.error; ++pattern) {
    for (std::size_t c = 0; c < chunks.ptrs.size(); ++c) {
      const std::uint64_t offset_words = c * kChunk / 8;
      if (auto rc = launch_pattern_write(nullptr, static_cast<std::uint64_t*>(chunks.ptrs[c]), kChunk / 8, offset_words,
                                         pattern, request.seed);
          rc != cudaSuccess) {
        check.error = fmt::format("pattern write failed: {}", cudaGetErrorString(rc));
        break;
      }
    }
    const unsigned long long init[3] = {0, ~0ull, 0};
    cudaMemcpy(result, init, sizeof(init), cudaMemcpyHostToDevice);
    for (std::size_t c = 0; c < chunks.ptrs.size() && !check.error; ++c) {
      launch_pattern_check(nullptr, static_cast<const std::uint64_t*>(chunks.ptrs[c]), kChunk / 8, c * kChunk / 8, pattern,
                           request.seed, result);
      if (clock::now() > deadline) {
        cudaDeviceSynchronize();
        tested = (c + 1) * kChunk;
        check.error = fmt::format("stopped after the {} s timeout", request.timeout.count() / 1000);
      }
    }
    unsigned long long counts[3] = {0, 0, 0};
    if (auto rc = cudaMemcpy(counts, result, sizeof(counts), cudaMemcpyDeviceToHost); rc != cudaSuccess) {
      cudaFree(result);
      return cuda_error(fmt::format("GPU {}: read the check result", request.gpu), rc);
    }
    if (counts[0] > 0) {
      check.miscompares.push_back({kPatterns[pattern], counts[1] * 8, counts[2] * 8, counts[0]});
    }
    check.patterns.push_back(kPatterns[pattern]);
  }
  cudaFree(result);
  check.tested_bytes = tested;
  check.seconds = std::chrono::duration<double>(clock::now() - started).count();
  return check;
}

}  // namespace gpuvet::cuda
