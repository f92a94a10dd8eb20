// Host launchers of every kernel in the embedded fatbin (copy_kernels.hpp, gemm_kernels.hpp,
// nccl_kernels.hpp): grid shapes as before the move to the driver API, arguments cast to the
// kernels' exact parameter types (kernel_abi.hpp).
#include <bit>
#include <cstring>

#include "backends/cuda/copy_kernels.hpp"
#include "backends/cuda/gemm_kernels.hpp"
#include "backends/cuda/nccl_kernels.hpp"

namespace gpuvet::cuda {
namespace {

constexpr unsigned kCopyThreads = 512;
constexpr unsigned kCopyGrid = 1024;
constexpr unsigned kGemmThreads = 256;
constexpr unsigned kGemmGrid = 1024;
constexpr unsigned kNcclThreads = 256;
constexpr unsigned kNcclBlocks = 1024;

float bf16_to_float(std::uint16_t bits) { return std::bit_cast<float>(static_cast<std::uint32_t>(bits) << 16); }

// IEEE binary16 -> binary32, exact (what __half2float computes), subnormals included.
float fp16_to_float(std::uint16_t bits) {
  const std::uint32_t sign = static_cast<std::uint32_t>(bits & 0x8000u) << 16;
  std::uint32_t exponent = (bits >> 10) & 0x1fu;
  std::uint32_t mantissa = bits & 0x3ffu;
  if (exponent == 0x1f) return std::bit_cast<float>(sign | 0x7f800000u | (mantissa << 13));  // inf, NaN
  if (exponent == 0) {
    if (mantissa == 0) return std::bit_cast<float>(sign);
    exponent = 127 - 15 + 1;
    while ((mantissa & 0x400u) == 0) {
      mantissa <<= 1;
      --exponent;
    }
    mantissa &= 0x3ffu;
    return std::bit_cast<float>(sign | (exponent << 23) | (mantissa << 13));
  }
  return std::bit_cast<float>(sign | ((exponent + 127 - 15) << 23) | (mantissa << 13));
}

}  // namespace

std::optional<core::Error> launch_spin(Gpu& gpu, driver::CUstream stream, const volatile int* release,
                                       std::uint64_t timeout_ns) {
  return gpu.launch(kernel_name::kSpin, 1, 1, stream, release, timeout_ns);
}

std::optional<core::Error> launch_copy(Gpu& gpu, driver::CUstream stream, driver::CUdeviceptr dst,
                                       driver::CUdeviceptr src, std::size_t bytes, int sm_count) {
  return gpu.launch(kernel_name::kCopy, static_cast<unsigned>(sm_count) * 4, kCopyThreads, stream, dst, src,
                    static_cast<std::size_t>(bytes / 16));
}

std::optional<core::Error> launch_chase(Gpu& gpu, driver::CUstream stream, driver::CUdeviceptr start, std::uint64_t steps,
                                        driver::CUdeviceptr sink) {
  return gpu.launch(kernel_name::kChase, 1, 1, stream, start, steps, sink);
}

std::optional<core::Error> launch_pattern_write(Gpu& gpu, driver::CUstream stream, driver::CUdeviceptr base,
                                                std::uint64_t words, std::uint64_t offset_words, int pattern,
                                                std::uint64_t seed) {
  return gpu.launch(kernel_name::kPatternWrite, kCopyGrid, kCopyThreads, stream, base, words, offset_words, pattern, seed);
}

std::optional<core::Error> launch_pattern_check(Gpu& gpu, driver::CUstream stream, driver::CUdeviceptr base,
                                                std::uint64_t words, std::uint64_t offset_words, int pattern,
                                                std::uint64_t seed, driver::CUdeviceptr result) {
  return gpu.launch(kernel_name::kPatternCheck, kCopyGrid, kCopyThreads, stream, base, words, offset_words, pattern, seed,
                    result);
}

std::optional<core::Error> launch_fill(Gpu& gpu, float* buffer, std::size_t count, int rank, std::size_t offset,
                                       driver::CUstream stream) {
  if (count == 0) return std::nullopt;
  return gpu.launch(kernel_name::kNcclFill, kNcclBlocks, kNcclThreads, stream, buffer, count, rank, offset);
}

std::optional<core::Error> launch_check(Gpu& gpu, const float* output, std::size_t count, CheckOp op, int rank, int ranks,
                                        std::size_t block, unsigned long long* wrong, driver::CUstream stream) {
  if (count == 0) return std::nullopt;
  return gpu.launch(kernel_name::kNcclCheck, kNcclBlocks, kNcclThreads, stream, output, count, op, rank, ranks, block,
                    wrong);
}

namespace gemm {

std::size_t elem_size(Elem e) {
  switch (e) {
    case Elem::bf16:
    case Elem::fp16: return 2;
    case Elem::fp32: return 4;
    case Elem::fp64: return 8;
  }
  return 4;
}

std::optional<core::Error> fill_random(Gpu& gpu, driver::CUdeviceptr data, std::size_t count, Elem e, std::uint64_t seed,
                                       driver::CUstream stream) {
  return gpu.launch(kernel_name::kGemmFill, kGemmGrid, kGemmThreads, stream, data, count, e, seed);
}

std::optional<core::Error> count_mismatches(Gpu& gpu, driver::CUdeviceptr a, driver::CUdeviceptr b, std::size_t bytes,
                                            driver::CUdeviceptr device_counter, driver::CUstream stream) {
  return gpu.launch(kernel_name::kGemmMismatch, kGemmGrid, kGemmThreads, stream, a, b, static_cast<std::size_t>(bytes / 4),
                    device_counter);
}

std::optional<core::Error> reference_samples(Gpu& gpu, driver::CUdeviceptr a, driver::CUdeviceptr b, int n, Elem e,
                                             driver::CUdeviceptr rows, driver::CUdeviceptr cols, int samples,
                                             driver::CUdeviceptr out, driver::CUstream stream) {
  return gpu.launch(kernel_name::kGemmReference, static_cast<unsigned>((samples + 63) / 64), 64, stream, a, b, n, e, rows,
                    cols, samples, out);
}

double element_value(const void* host_data, std::size_t index, Elem e) {
  std::uint16_t bits = 0;
  switch (e) {
    case Elem::bf16:
      std::memcpy(&bits, static_cast<const std::uint16_t*>(host_data) + index, sizeof bits);
      return static_cast<double>(bf16_to_float(bits));
    case Elem::fp16:
      std::memcpy(&bits, static_cast<const std::uint16_t*>(host_data) + index, sizeof bits);
      return static_cast<double>(fp16_to_float(bits));
    case Elem::fp32: return static_cast<double>(static_cast<const float*>(host_data)[index]);
    case Elem::fp64: return static_cast<const double*>(host_data)[index];
  }
  return 0.0;
}

}  // namespace gemm

}  // namespace gpuvet::cuda
