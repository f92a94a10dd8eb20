// Host launchers of the copy, latency and VRAM kernels (copy_kernels.cu, in the embedded
// fatbin). Internal to backends/cuda. The GPU's context must be current on the calling thread;
// each returns an error naming the GPU, the kernel and the driver's words.
#pragma once

#include <cstdint>
#include <optional>

#include "backends/cuda/cuda_context.hpp"

namespace gpuvet::cuda {

// Holds `stream` until *release becomes non-zero (host-mapped memory) or `timeout_ns` passes,
// so every copy of a sample is queued before any starts (nvbandwidth's method).
std::optional<core::Error> launch_spin(Gpu& gpu, driver::CUstream stream, const volatile int* release,
                                       std::uint64_t timeout_ns);

// SM-driven copy of `bytes` (a multiple of 16) from src to dst with a grid-stride loop.
std::optional<core::Error> launch_copy(Gpu& gpu, driver::CUstream stream, driver::CUdeviceptr dst,
                                       driver::CUdeviceptr src, std::size_t bytes, int sm_count);

// Follows `steps` dependent loads starting at *start (each word holds the next address).
std::optional<core::Error> launch_chase(Gpu& gpu, driver::CUstream stream, driver::CUdeviceptr start, std::uint64_t steps,
                                        driver::CUdeviceptr sink);

// VRAM patterns over `words` 8-byte words at `base`, whose first word is `offset_words` into
// the tested range: 0 = address (the word's own offset), 1 = walking ones, 2 = seeded random.
std::optional<core::Error> launch_pattern_write(Gpu& gpu, driver::CUstream stream, driver::CUdeviceptr base,
                                                std::uint64_t words, std::uint64_t offset_words, int pattern,
                                                std::uint64_t seed);

// Counts words that differ from the pattern; result[0] += count, result[1] = min offset (in
// words, within the tested range), result[2] = max offset. result must start as {0, ~0, 0}.
std::optional<core::Error> launch_pattern_check(Gpu& gpu, driver::CUstream stream, driver::CUdeviceptr base,
                                                std::uint64_t words, std::uint64_t offset_words, int pattern,
                                                std::uint64_t seed, driver::CUdeviceptr result);

}  // namespace gpuvet::cuda
