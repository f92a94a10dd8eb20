// The one entry point to libnccl: the NCCL ABI subset gpuvet uses (declared here exactly as
// nccl.h lays it out, NCCL 2.x) and a symbol table resolved with dlopen, so gpuvet starts on
// machines without NCCL. Used only by nccl_backend.cpp.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <type_traits>

#include "core/error.hpp"
#include "platform/dynamic_library.hpp"

struct CUstream_st;

namespace gpuvet::cuda::nccl {

using ncclComm_t = struct ncclComm*;
using cudaStream_t = CUstream_st*;
struct ncclUniqueId {
  char internal[128];  // NCCL_UNIQUE_ID_BYTES
};
// ncclResult_t
enum ncclResult_t : int {
  ncclSuccess = 0,
  ncclUnhandledCudaError = 1,
  ncclSystemError = 2,
  ncclInternalError = 3,
  ncclInvalidArgument = 4,
  ncclInvalidUsage = 5,
  ncclRemoteError = 6,
  ncclInProgress = 7,
};
enum ncclRedOp_t : int { ncclSum = 0 };
enum ncclDataType_t : int { ncclFloat32 = 7 };

// X(member, signature, required, exported name)
#define GPUVET_NCCL_SYMBOLS(X)                                                                                    \
  X(get_version, ncclResult_t(int*), true, "ncclGetVersion")                                                      \
  X(get_error_string, const char*(ncclResult_t), true, "ncclGetErrorString")                                      \
  X(get_unique_id, ncclResult_t(ncclUniqueId*), true, "ncclGetUniqueId")                                          \
  X(comm_init_rank, ncclResult_t(ncclComm_t*, int, ncclUniqueId, int), true, "ncclCommInitRank")                 \
  X(comm_init_all, ncclResult_t(ncclComm_t*, int, const int*), true, "ncclCommInitAll")                          \
  X(comm_destroy, ncclResult_t(ncclComm_t), true, "ncclCommDestroy")                                              \
  X(comm_abort, ncclResult_t(ncclComm_t), true, "ncclCommAbort")                                                  \
  X(comm_get_async_error, ncclResult_t(ncclComm_t, ncclResult_t*), true, "ncclCommGetAsyncError")                \
  X(group_start, ncclResult_t(), true, "ncclGroupStart")                                                          \
  X(group_end, ncclResult_t(), true, "ncclGroupEnd")                                                              \
  X(all_reduce, ncclResult_t(const void*, void*, std::size_t, ncclDataType_t, ncclRedOp_t, ncclComm_t, cudaStream_t), \
    true, "ncclAllReduce")                                                                                        \
  X(all_gather, ncclResult_t(const void*, void*, std::size_t, ncclDataType_t, ncclComm_t, cudaStream_t), true,   \
    "ncclAllGather")                                                                                              \
  X(reduce_scatter,                                                                                               \
    ncclResult_t(const void*, void*, std::size_t, ncclDataType_t, ncclRedOp_t, ncclComm_t, cudaStream_t), true,   \
    "ncclReduceScatter")                                                                                          \
  X(broadcast, ncclResult_t(const void*, void*, std::size_t, ncclDataType_t, int, ncclComm_t, cudaStream_t), true, \
    "ncclBroadcast")                                                                                              \
  X(send, ncclResult_t(const void*, std::size_t, ncclDataType_t, int, ncclComm_t, cudaStream_t), true, "ncclSend") \
  X(recv, ncclResult_t(void*, std::size_t, ncclDataType_t, int, ncclComm_t, cudaStream_t), true, "ncclRecv")

struct Api {
#define GPUVET_NCCL_MEMBER(member, signature, required, name) std::add_pointer_t<signature> member = nullptr;
  GPUVET_NCCL_SYMBOLS(GPUVET_NCCL_MEMBER)
#undef GPUVET_NCCL_MEMBER
};

class Library {
 public:
  // Environment error when the library cannot be opened or lacks a symbol (naming both).
  static core::Result<std::unique_ptr<Library>> load(const std::string& name);
  [[nodiscard]] const Api& api() const { return api_; }
  [[nodiscard]] const std::string& name() const { return library_->name(); }
  // "2.21.5"
  [[nodiscard]] std::string version() const;
  // "ncclSystemError: <NCCL's words>"
  [[nodiscard]] std::string describe(ncclResult_t code) const;

 private:
  explicit Library(std::shared_ptr<platform::DynamicLibrary> library) : library_(std::move(library)) {}
  std::shared_ptr<platform::DynamicLibrary> library_;
  Api api_;
};

}  // namespace gpuvet::cuda::nccl
