// The one entry point to the CUDA driver (libcuda.so.1): the driver-API subset gpuvet uses,
// declared here as cuda.h lays it out (x86-64 and aarch64 LP64; checked against cuda.h in
// cuda_driver_abi_check.cpp), and a symbol table resolved with dlopen/dlsym. The exported names
// are the versioned ones cuda.h maps to (cuMemAlloc -> cuMemAlloc_v2), so the table works on every
// driver from the 525 branch (CUDA 12.0) on. Nothing here changes GPU settings: contexts, memory,
// streams, events, copies and kernel launches only. Used by the CUDA backend and `--version`.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <type_traits>

#include "core/error.hpp"
#include "platform/dynamic_library.hpp"

struct CUstream_st;  // the same opaque type cudaStream_t, NCCL and cuBLAS use
struct CUctx_st;
struct CUmod_st;
struct CUfunc_st;
struct CUevent_st;

namespace gpuvet::cuda::driver {

using CUresult = int;  // a 4-byte C enum
using CUdevice = int;
using CUdeviceptr = unsigned long long;  // CUdeviceptr_v2
using CUcontext = CUctx_st*;
using CUmodule = CUmod_st*;
using CUfunction = CUfunc_st*;
using CUstream = CUstream_st*;
using CUevent = CUevent_st*;
using CUdevice_attribute = int;

inline constexpr CUresult kSuccess = 0;
inline constexpr CUresult kErrorOutOfMemory = 2;
inline constexpr CUresult kErrorNoDevice = 100;
inline constexpr CUresult kErrorNoBinaryForGpu = 209;
inline constexpr CUresult kErrorUnsupportedPtxVersion = 222;
inline constexpr CUresult kErrorNotReady = 600;
inline constexpr CUresult kErrorPeerAccessAlreadyEnabled = 704;
inline constexpr CUresult kErrorNotSupported = 801;

inline constexpr CUdevice_attribute kAttrMultiprocessorCount = 16;
inline constexpr CUdevice_attribute kAttrPciBusId = 33;
inline constexpr CUdevice_attribute kAttrPciDeviceId = 34;
inline constexpr CUdevice_attribute kAttrPciDomainId = 50;
inline constexpr CUdevice_attribute kAttrComputeCapabilityMajor = 75;
inline constexpr CUdevice_attribute kAttrComputeCapabilityMinor = 76;

inline constexpr unsigned kStreamNonBlocking = 0x1;     // CU_STREAM_NON_BLOCKING
inline constexpr unsigned kEventDefault = 0x0;          // CU_EVENT_DEFAULT
inline constexpr unsigned kMemHostAllocPortable = 0x1;  // CU_MEMHOSTALLOC_PORTABLE
inline constexpr unsigned kMemHostAllocDeviceMap = 0x2;
inline constexpr unsigned kMemHostRegisterPortable = 0x1;  // CU_MEMHOSTREGISTER_PORTABLE
inline constexpr unsigned kMemHostRegisterDeviceMap = 0x2;

// X(member, C signature, required, exported names to try in order...)
// Every entry is required today: each exists in all drivers since CUDA 12.0 under one of its
// names (the versioned name cuda.h 13 uses first, the older one as fallback). An optional entry
// would be left null when missing, and its users would have to say what then cannot be measured.
#define GPUVET_CUDA_DRIVER_SYMBOLS(X)                                                                               \
  X(init, CUresult(unsigned), true, "cuInit")                                                                       \
  X(driver_get_version, CUresult(int*), true, "cuDriverGetVersion")                                                 \
  X(get_error_name, CUresult(CUresult, const char**), true, "cuGetErrorName")                                       \
  X(get_error_string, CUresult(CUresult, const char**), true, "cuGetErrorString")                                   \
  X(device_get_count, CUresult(int*), true, "cuDeviceGetCount")                                                     \
  X(device_get, CUresult(CUdevice*, int), true, "cuDeviceGet")                                                      \
  X(device_get_name, CUresult(char*, int, CUdevice), true, "cuDeviceGetName")                                       \
  X(device_get_attribute, CUresult(int*, CUdevice_attribute, CUdevice), true, "cuDeviceGetAttribute")               \
  X(device_can_access_peer, CUresult(int*, CUdevice, CUdevice), true, "cuDeviceCanAccessPeer")                      \
  X(primary_ctx_retain, CUresult(CUcontext*, CUdevice), true, "cuDevicePrimaryCtxRetain")                           \
  X(primary_ctx_release, CUresult(CUdevice), true, "cuDevicePrimaryCtxRelease_v2", "cuDevicePrimaryCtxRelease")     \
  X(ctx_set_current, CUresult(CUcontext), true, "cuCtxSetCurrent")                                                  \
  X(ctx_get_current, CUresult(CUcontext*), true, "cuCtxGetCurrent")                                                 \
  X(ctx_synchronize, CUresult(), true, "cuCtxSynchronize")                                                          \
  X(ctx_enable_peer_access, CUresult(CUcontext, unsigned), true, "cuCtxEnablePeerAccess")                           \
  X(mem_get_info, CUresult(std::size_t*, std::size_t*), true, "cuMemGetInfo_v2")                                    \
  X(mem_alloc, CUresult(CUdeviceptr*, std::size_t), true, "cuMemAlloc_v2")                                          \
  X(mem_free, CUresult(CUdeviceptr), true, "cuMemFree_v2")                                                          \
  X(mem_host_alloc, CUresult(void**, std::size_t, unsigned), true, "cuMemHostAlloc")                                \
  X(mem_free_host, CUresult(void*), true, "cuMemFreeHost")                                                          \
  X(mem_host_register, CUresult(void*, std::size_t, unsigned), true, "cuMemHostRegister_v2")                        \
  X(mem_host_unregister, CUresult(void*), true, "cuMemHostUnregister")                                              \
  X(mem_host_get_device_pointer, CUresult(CUdeviceptr*, void*, unsigned), true, "cuMemHostGetDevicePointer_v2")     \
  X(memset_d8, CUresult(CUdeviceptr, unsigned char, std::size_t), true, "cuMemsetD8_v2")                            \
  X(memset_d8_async, CUresult(CUdeviceptr, unsigned char, std::size_t, CUstream), true, "cuMemsetD8Async")          \
  X(memcpy_async, CUresult(CUdeviceptr, CUdeviceptr, std::size_t, CUstream), true, "cuMemcpyAsync")                 \
  X(memcpy_peer_async, CUresult(CUdeviceptr, CUcontext, CUdeviceptr, CUcontext, std::size_t, CUstream), true,       \
    "cuMemcpyPeerAsync")                                                                                            \
  X(memcpy_htod, CUresult(CUdeviceptr, const void*, std::size_t), true, "cuMemcpyHtoD_v2")                          \
  X(memcpy_dtoh, CUresult(void*, CUdeviceptr, std::size_t), true, "cuMemcpyDtoH_v2")                                \
  X(memcpy_htod_async, CUresult(CUdeviceptr, const void*, std::size_t, CUstream), true, "cuMemcpyHtoDAsync_v2")     \
  X(memcpy_dtoh_async, CUresult(void*, CUdeviceptr, std::size_t, CUstream), true, "cuMemcpyDtoHAsync_v2")           \
  X(stream_create, CUresult(CUstream*, unsigned), true, "cuStreamCreate")                                           \
  X(stream_destroy, CUresult(CUstream), true, "cuStreamDestroy_v2")                                                 \
  X(stream_synchronize, CUresult(CUstream), true, "cuStreamSynchronize")                                            \
  X(event_create, CUresult(CUevent*, unsigned), true, "cuEventCreate")                                              \
  X(event_destroy, CUresult(CUevent), true, "cuEventDestroy_v2")                                                    \
  X(event_record, CUresult(CUevent, CUstream), true, "cuEventRecord")                                               \
  X(event_query, CUresult(CUevent), true, "cuEventQuery")                                                           \
  /* _v2 (12.8+) is what cuda.h 13 maps cuEventElapsedTime to; older drivers export only the first. */              \
  X(event_elapsed_time, CUresult(float*, CUevent, CUevent), true, "cuEventElapsedTime_v2", "cuEventElapsedTime")    \
  X(module_load_data, CUresult(CUmodule*, const void*), true, "cuModuleLoadData")                                   \
  X(module_unload, CUresult(CUmodule), true, "cuModuleUnload")                                                      \
  X(module_get_function, CUresult(CUfunction*, CUmodule, const char*), true, "cuModuleGetFunction")                 \
  X(launch_kernel,                                                                                                  \
    CUresult(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, CUstream, void**,    \
             void**),                                                                                               \
    true, "cuLaunchKernel")

struct Api {
#define GPUVET_CUDA_DRIVER_MEMBER(member, signature, required, ...) std::add_pointer_t<signature> member = nullptr;
  GPUVET_CUDA_DRIVER_SYMBOLS(GPUVET_CUDA_DRIVER_MEMBER)
#undef GPUVET_CUDA_DRIVER_MEMBER
};

// The oldest driver gpuvet's CUDA probes accept: CUDA 12.0, the 525 branch (docs/compatibility.md).
inline constexpr int kMinimumCudaVersion = 12000;
inline constexpr const char* kMinimumDriver = "525.60.13";

// "12.4" from cuDriverGetVersion's 12040.
std::string cuda_version_text(int version);

// $GPUVET_CUDA_LIBRARY, else "libcuda.so.1".
std::string default_library_name();

class Driver {
 public:
  // Opens the library (once per name and process), resolves the table, and reads the driver's
  // CUDA version, without initialising the driver. Environment error naming the library when it
  // cannot be opened or lacks a required symbol.
  static core::Result<std::shared_ptr<Driver>> load(const std::string& library_name);
  // load(), then the version gate (an environment error naming the driver found and the one
  // needed), then cuInit (numbering GPUs in PCI order unless CUDA_DEVICE_ORDER is set). What every
  // CUDA feature calls first.
  static core::Result<std::shared_ptr<Driver>> open(const std::string& library_name = default_library_name());

  [[nodiscard]] const Api& api() const { return api_; }
  [[nodiscard]] const std::string& name() const { return library_->name(); }
  // cuDriverGetVersion: 12040 for CUDA 12.4.
  [[nodiscard]] int cuda_version() const { return cuda_version_; }
  // The driver release ("535.183.01") read from the file libcuda.so.1 links to, or empty.
  [[nodiscard]] const std::string& release() const { return release_; }
  // "driver 535.183.01 (CUDA 12.2)", or "driver of unknown release (CUDA 12.2)".
  [[nodiscard]] std::string describe_version() const;
  // "CUDA_ERROR_OUT_OF_MEMORY (out of memory)": the code's name and the driver's own words.
  [[nodiscard]] std::string describe(CUresult code) const;
  // Environment error "<what>: <describe(code)>".
  [[nodiscard]] core::Error error(const std::string& what, CUresult code) const;

 private:
  explicit Driver(std::shared_ptr<platform::DynamicLibrary> library) : library_(std::move(library)) {}
  std::shared_ptr<platform::DynamicLibrary> library_;
  Api api_;
  int cuda_version_ = 0;
  std::string release_;
};

}  // namespace gpuvet::cuda::driver
