// cuBLAS loaded at run time (dlopen libcublas.so.13 or .12, whichever the driver can run) through
// one symbol table, so the binary starts on machines without it. Declares only the ABI the GEMM stress uses (values from
// cublas_api.h and library_types.h of CUDA 13.0). Internal to the CUDA backend.
#pragma once

#include <memory>
#include <string>
#include <type_traits>

#include "core/error.hpp"
#include "platform/dynamic_library.hpp"

struct CUstream_st;
struct cublasContext;

namespace gpuvet::cuda::cublas {

using Status = int;                  // cublasStatus_t
using Handle = cublasContext*;       // cublasHandle_t
using Stream = CUstream_st*;         // cudaStream_t
using Operation = int;               // cublasOperation_t
using DataType = int;                // cudaDataType
using ComputeType = int;             // cublasComputeType_t
using GemmAlgo = int;                // cublasGemmAlgo_t

inline constexpr Status kSuccess = 0;
inline constexpr Operation kOpN = 0;
inline constexpr DataType kR16F = 2;
inline constexpr DataType kR16BF = 14;
inline constexpr DataType kR32F = 0;
inline constexpr DataType kR64F = 1;
inline constexpr ComputeType kCompute32F = 68;
inline constexpr ComputeType kCompute32FFastTF32 = 77;
inline constexpr ComputeType kCompute64F = 70;
inline constexpr GemmAlgo kGemmDefault = -1;

// X(member, C signature, exported name)
#define GPUVET_CUBLAS_SYMBOLS(X)                                                                        \
  X(create, Status(Handle*), "cublasCreate_v2")                                                         \
  X(get_property, Status(int, int*), "cublasGetProperty")                                               \
  X(destroy, Status(Handle), "cublasDestroy_v2")                                                        \
  X(get_version, Status(Handle, int*), "cublasGetVersion_v2")                                           \
  X(set_stream, Status(Handle, Stream), "cublasSetStream_v2")                                           \
  X(gemm_ex,                                                                                            \
    Status(Handle, Operation, Operation, int, int, int, const void*, const void*, DataType, int,        \
           const void*, DataType, int, const void*, void*, DataType, int, ComputeType, GemmAlgo),       \
    "cublasGemmEx")

struct Api {
#define GPUVET_CUBLAS_MEMBER(member, signature, name) std::add_pointer_t<signature> member = nullptr;
  GPUVET_CUBLAS_SYMBOLS(GPUVET_CUBLAS_MEMBER)
#undef GPUVET_CUBLAS_MEMBER
};

class Library {
 public:
  // `driver_cuda_version`: cuDriverGetVersion's value, or 0 when unknown. cuBLAS 13 needs a
  // CUDA 13 driver (580+), so older drivers get libcublas.so.12 only; otherwise .13, then .12.
  // Every symbol is required. Environment error naming the libraries or the missing symbol.
  static core::Result<std::shared_ptr<Library>> load(int driver_cuda_version);
  [[nodiscard]] const Api& api() const { return api_; }
  [[nodiscard]] const std::string& name() const { return library_->name(); }
  // "13.1.0" (cublasGetProperty; needs no GPU).
  [[nodiscard]] std::string version() const;

 private:
  explicit Library(std::shared_ptr<platform::DynamicLibrary> library) : library_(std::move(library)) {}
  std::shared_ptr<platform::DynamicLibrary> library_;
  Api api_;
};

// "CUBLAS_STATUS_NOT_SUPPORTED" etc.
std::string status_name(Status status);

}  // namespace gpuvet::cuda::cublas
