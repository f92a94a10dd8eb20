// Kernels of the copy and memory probes (internal to backends/cuda). Host-callable launchers;
// every launcher returns the launch's cudaError_t.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

namespace gpuvet::cuda {

// Holds `stream` until *release becomes non-zero (host-mapped memory) or `timeout_ns` passes,
// so every copy of a sample is queued before any starts (nvbandwidth's method).
cudaError_t launch_spin(cudaStream_t stream, const volatile int* release, std::uint64_t timeout_ns);

// SM-driven copy of `bytes` (a multiple of 16) from src to dst with a grid-stride loop.
cudaError_t launch_copy(cudaStream_t stream, void* dst, const void* src, std::size_t bytes, int sm_count);

// Follows `steps` dependent loads starting at *start (each word holds the next address).
cudaError_t launch_chase(cudaStream_t stream, const std::uint64_t* start, std::uint64_t steps, std::uint64_t* sink);

// VRAM patterns over `words` 8-byte words at `base`, whose first word is `offset_words` into
// the tested range: 0 = address (the word's own offset), 1 = walking ones, 2 = seeded random.
cudaError_t launch_pattern_write(cudaStream_t stream, std::uint64_t* base, std::uint64_t words,
                                 std::uint64_t offset_words, int pattern, std::uint64_t seed);

// Counts words that differ from the pattern; result[0] += count, result[1] = min offset (in
// words, within the tested range), result[2] = max offset. result must start as {0, ~0, 0}.
cudaError_t launch_pattern_check(cudaStream_t stream, const std::uint64_t* base, std::uint64_t words,
                                 std::uint64_t offset_words, int pattern, std::uint64_t seed,
                                 unsigned long long* result);

}  // namespace gpuvet::cuda
