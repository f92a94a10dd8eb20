// Write-then-verify over all the memory the driver hands out.
#include "backends/cuda/vram_check_cuda.hpp"

#include <fmt/format.h>

#include <chrono>
#include <vector>

#include "backends/cuda/copy_kernels.hpp"

namespace gpuvet::cuda {
namespace {

constexpr std::size_t kChunk = 256ull << 20;
const char* const kPatterns[] = {"address", "walking-ones", "random"};

// Device memory of one GPU, freed in its context.
struct Chunks {
  Gpus* gpus = nullptr;
  int device = 0;
  std::vector<driver::CUdeviceptr> ptrs;
  Chunks() = default;
  Chunks(const Chunks&) = delete;
  Chunks& operator=(const Chunks&) = delete;
  ~Chunks() {
    if (gpus == nullptr || gpus->use(device)) return;
    for (auto p : ptrs) gpus->api().mem_free(p);
  }
};

}  // namespace

core::Result<core::VramCheck> check_vram(Gpus& gpus, const api::VramRequest& request) {
  using clock = std::chrono::steady_clock;
  const auto started = clock::now();
  const auto deadline = started + request.timeout;
  const auto& api = gpus.api();
  const auto& drv = gpus.driver();
  auto selected = gpus.get(request.gpu);
  if (!selected) return selected.error();
  Gpu& gpu = **selected;
  if (auto e = gpu.make_current()) return *e;
  std::size_t free_bytes = 0;
  std::size_t total_bytes = 0;
  if (auto rc = api.mem_get_info(&free_bytes, &total_bytes); rc != driver::kSuccess) {
    return drv.error(fmt::format("GPU {}: memory info", request.gpu), rc);
  }
  core::VramCheck check;
  check.gpu = request.gpu;
  check.total_bytes = static_cast<std::uint64_t>(total_bytes);
  Chunks chunks;
  chunks.gpus = &gpus;
  chunks.device = request.gpu;
  std::size_t allocated = 0;
  while (allocated + kChunk + request.reserve_bytes <= free_bytes) {
    driver::CUdeviceptr p = 0;
    if (api.mem_alloc(&p, kChunk) != driver::kSuccess) break;  // out of memory ends the allocation, it is not an error of the check
    chunks.ptrs.push_back(p);
    allocated += kChunk;
  }
  driver::CUdeviceptr result = 0;
  if (auto rc = api.mem_alloc(&result, 3 * sizeof(unsigned long long)); rc != driver::kSuccess) {
    return drv.error(fmt::format("GPU {}: allocate the result counters", request.gpu), rc);
  }
  std::uint64_t tested = allocated;
  for (int pattern = 0; pattern < 3 && !check.error; ++pattern) {
    for (std::size_t c = 0; c < chunks.ptrs.size(); ++c) {
      const std::uint64_t offset_words = c * kChunk / 8;
      if (auto e = launch_pattern_write(gpu, nullptr, chunks.ptrs[c], kChunk / 8, offset_words, pattern, request.seed)) {
        check.error = fmt::format("pattern write failed: {}", e->message);
        break;
      }
    }
    const unsigned long long init[3] = {0, ~0ull, 0};
    api.memcpy_htod(result, init, sizeof(init));
    for (std::size_t c = 0; c < chunks.ptrs.size() && !check.error; ++c) {
      launch_pattern_check(gpu, nullptr, chunks.ptrs[c], kChunk / 8, c * kChunk / 8, pattern, request.seed, result);
      if (clock::now() > deadline) {
        api.ctx_synchronize();
        tested = (c + 1) * kChunk;
        check.error = fmt::format("stopped after the {} s timeout", request.timeout.count() / 1000);
      }
    }
    unsigned long long counts[3] = {0, 0, 0};
    if (auto rc = api.memcpy_dtoh(counts, result, sizeof(counts)); rc != driver::kSuccess) {
      api.mem_free(result);
      return drv.error(fmt::format("GPU {}: read the check result", request.gpu), rc);
    }
    if (counts[0] > 0) {
      check.miscompares.push_back({kPatterns[pattern], counts[1] * 8, counts[2] * 8, counts[0]});
    }
    check.patterns.push_back(kPatterns[pattern]);
  }
  api.mem_free(result);
  check.tested_bytes = tested;
  check.seconds = std::chrono::duration<double>(clock::now() - started).count();
  return check;
}

}  // namespace gpuvet::cuda
