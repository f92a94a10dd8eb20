// VRAM verification on each GPU through an api::CopyBackend: allocate what the driver allows,
// write and read back patterns, report tested bytes and miscompares. One GPU's failure is
// recorded on its entry and the others still run.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <vector>

#include "backends/api/copy_backend.hpp"
#include "core/vram.hpp"

namespace gpuvet::probes {

struct VramOptions {
  std::vector<int> gpus;                      // CUDA ordinals; empty = every GPU
  std::uint64_t seed = 0x9e3779b97f4a7c15ull;  // the random pattern's seed
  std::uint64_t reserve_bytes = 512ull << 20;
  std::chrono::milliseconds timeout{600000};  // per GPU
  std::function<void(int gpu)> on_gpu;        // progress
};

core::Result<core::VramRun> run_vram_check(api::CopyBackend& backend, const VramOptions& options);

}  // namespace gpuvet::probes
