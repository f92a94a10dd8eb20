// What the kernels (kernels.cu, compiled by nvcc into the embedded fatbin) and their host
// launchers (compiled by the C++ compiler) must agree on: the parameter enums and the kernels'
// exported names. Kernels are extern "C" so that the names are not mangled. Plain C++: no CUDA
// header, so both compilers read the same declarations.
#pragma once

namespace gpuvet::cuda {

namespace gemm {
// Passed to kernels as a 4-byte int.
enum class Elem : int { bf16, fp16, fp32, fp64 };
}  // namespace gemm

// Passed to kernels as a 4-byte int.
enum class CheckOp : int { all_reduce, all_gather, reduce_scatter, alltoall, broadcast, sendrecv };

namespace kernel_name {
inline constexpr const char* kSpin = "gpuvet_spin";
inline constexpr const char* kCopy = "gpuvet_copy";
inline constexpr const char* kChase = "gpuvet_chase";
inline constexpr const char* kPatternWrite = "gpuvet_pattern_write";
inline constexpr const char* kPatternCheck = "gpuvet_pattern_check";
inline constexpr const char* kGemmFill = "gpuvet_gemm_fill";
inline constexpr const char* kGemmMismatch = "gpuvet_gemm_mismatch";
inline constexpr const char* kGemmReference = "gpuvet_gemm_reference";
inline constexpr const char* kNcclFill = "gpuvet_nccl_fill";
inline constexpr const char* kNcclCheck = "gpuvet_nccl_check";
}  // namespace kernel_name

}  // namespace gpuvet::cuda
