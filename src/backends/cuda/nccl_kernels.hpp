// Data pattern and result check for NCCL collectives (nccl_kernels.cu). Element i of rank r's
// input holds r + 1 + (i mod 7): every sum over up to 64 ranks is exact in float, so a result
// element is either exactly right or wrong.
#pragma once

#include <cstddef>
#include <cstdint>

struct CUstream_st;

namespace gpuvet::cuda {

enum class CheckOp : int { all_reduce, all_gather, reduce_scatter, alltoall, broadcast, sendrecv };

// Fills `count` floats with rank `rank`'s pattern, starting at global element `offset`.
// Returns the CUDA error code of the launch (0 on success).
int launch_fill(float* buffer, std::size_t count, int rank, std::size_t offset, CUstream_st* stream);

// Adds to *wrong the number of elements of rank `rank`'s output that differ from what `op` must
// produce. `count` = output elements of this rank; `block` = per-rank block (sendcount for
// all_gather, recvcount for reduce_scatter, chunk per peer for alltoall, else unused).
int launch_check(const float* output, std::size_t count, CheckOp op, int rank, int ranks, std::size_t block,
                 unsigned long long* wrong, CUstream_st* stream);

}  // namespace gpuvet::cuda
