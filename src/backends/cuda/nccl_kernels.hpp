// Data pattern and result check for NCCL collectives (nccl_kernels.cu, in the embedded fatbin).
// Element i of rank r's input holds r + 1 + (i mod 7): every sum over up to 64 ranks is exact in
// float, so a result element is either exactly right or wrong. The GPU's context must be current
// on the calling thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>

#include "backends/cuda/cuda_context.hpp"
#include "backends/cuda/kernel_abi.hpp"

namespace gpuvet::cuda {

// Fills `count` floats with rank `rank`'s pattern, starting at global element `offset`.
std::optional<core::Error> launch_fill(Gpu& gpu, float* buffer, std::size_t count, int rank, std::size_t offset,
                                       driver::CUstream stream);

// Adds to *wrong the number of elements of rank `rank`'s output that differ from what `op` must
// produce. `count` = output elements of this rank; `block` = per-rank block (sendcount for
// all_gather, recvcount for reduce_scatter, chunk per peer for alltoall, else unused).
std::optional<core::Error> launch_check(Gpu& gpu, const float* output, std::size_t count, CheckOp op, int rank, int ranks,
                                        std::size_t block, unsigned long long* wrong, driver::CUstream stream);

}  // namespace gpuvet::cuda
