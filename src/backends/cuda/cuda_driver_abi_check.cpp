// Compile-time check of cuda_driver.hpp's hand-declared ABI against the toolkit's cuda.h (built
// only where nvcc was found). Nothing here runs.
#include <cuda.h>

#include <string_view>

#include "backends/cuda/cuda_driver.hpp"
#include "backends/cuda/kernel_abi.hpp"

namespace gpuvet::cuda::driver {

static_assert(sizeof(::CUresult) == sizeof(CUresult));
static_assert(sizeof(::CUdevice_attribute) == sizeof(CUdevice_attribute));
static_assert(std::is_same_v<::CUdevice, CUdevice>);
static_assert(std::is_same_v<::CUdeviceptr, CUdeviceptr>);
static_assert(std::is_same_v<::CUcontext, CUcontext>);
static_assert(std::is_same_v<::CUmodule, CUmodule>);
static_assert(std::is_same_v<::CUfunction, CUfunction>);
static_assert(std::is_same_v<::CUstream, CUstream>);
static_assert(std::is_same_v<::CUevent, CUevent>);

static_assert(CUDA_SUCCESS == kSuccess);
static_assert(CUDA_ERROR_OUT_OF_MEMORY == kErrorOutOfMemory);
static_assert(CUDA_ERROR_NO_DEVICE == kErrorNoDevice);
static_assert(CUDA_ERROR_NO_BINARY_FOR_GPU == kErrorNoBinaryForGpu);
static_assert(CUDA_ERROR_UNSUPPORTED_PTX_VERSION == kErrorUnsupportedPtxVersion);
static_assert(CUDA_ERROR_NOT_READY == kErrorNotReady);
static_assert(CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED == kErrorPeerAccessAlreadyEnabled);
static_assert(CUDA_ERROR_NOT_SUPPORTED == kErrorNotSupported);

static_assert(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT == kAttrMultiprocessorCount);
static_assert(CU_DEVICE_ATTRIBUTE_PCI_BUS_ID == kAttrPciBusId);
static_assert(CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID == kAttrPciDeviceId);
static_assert(CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID == kAttrPciDomainId);
static_assert(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR == kAttrComputeCapabilityMajor);
static_assert(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR == kAttrComputeCapabilityMinor);

static_assert(CU_STREAM_NON_BLOCKING == kStreamNonBlocking);
static_assert(CU_EVENT_DEFAULT == kEventDefault);
static_assert(CU_MEMHOSTALLOC_PORTABLE == kMemHostAllocPortable);
static_assert(CU_MEMHOSTALLOC_DEVICEMAP == kMemHostAllocDeviceMap);
static_assert(CU_MEMHOSTREGISTER_PORTABLE == kMemHostRegisterPortable);
static_assert(CU_MEMHOSTREGISTER_DEVICEMAP == kMemHostRegisterDeviceMap);

// The versioned names the table resolves are the ones this cuda.h maps the plain names to.
#define GPUVET_NAME_OF(macro) GPUVET_NAME_TEXT(macro)
#define GPUVET_NAME_TEXT(name) #name
static_assert(std::string_view(GPUVET_NAME_OF(cuMemAlloc)) == "cuMemAlloc_v2");
static_assert(std::string_view(GPUVET_NAME_OF(cuMemFree)) == "cuMemFree_v2");
static_assert(std::string_view(GPUVET_NAME_OF(cuMemGetInfo)) == "cuMemGetInfo_v2");
static_assert(std::string_view(GPUVET_NAME_OF(cuMemHostRegister)) == "cuMemHostRegister_v2");
static_assert(std::string_view(GPUVET_NAME_OF(cuMemHostGetDevicePointer)) == "cuMemHostGetDevicePointer_v2");
static_assert(std::string_view(GPUVET_NAME_OF(cuMemcpyHtoD)) == "cuMemcpyHtoD_v2");
static_assert(std::string_view(GPUVET_NAME_OF(cuMemcpyDtoH)) == "cuMemcpyDtoH_v2");
static_assert(std::string_view(GPUVET_NAME_OF(cuMemcpyHtoDAsync)) == "cuMemcpyHtoDAsync_v2");
static_assert(std::string_view(GPUVET_NAME_OF(cuMemcpyDtoHAsync)) == "cuMemcpyDtoHAsync_v2");
static_assert(std::string_view(GPUVET_NAME_OF(cuMemsetD8)) == "cuMemsetD8_v2");
static_assert(std::string_view(GPUVET_NAME_OF(cuStreamDestroy)) == "cuStreamDestroy_v2");
static_assert(std::string_view(GPUVET_NAME_OF(cuEventDestroy)) == "cuEventDestroy_v2");
static_assert(std::string_view(GPUVET_NAME_OF(cuEventElapsedTime)) == "cuEventElapsedTime_v2");
static_assert(std::string_view(GPUVET_NAME_OF(cuDevicePrimaryCtxRelease)) == "cuDevicePrimaryCtxRelease_v2");
static_assert(std::string_view(GPUVET_NAME_OF(cuMemcpyAsync)) == "cuMemcpyAsync");
static_assert(std::string_view(GPUVET_NAME_OF(cuMemsetD8Async)) == "cuMemsetD8Async");
static_assert(std::string_view(GPUVET_NAME_OF(cuMemcpyPeerAsync)) == "cuMemcpyPeerAsync");
#undef GPUVET_NAME_OF
#undef GPUVET_NAME_TEXT

// Kernel parameters passed as 4-byte ints.
static_assert(sizeof(gemm::Elem) == sizeof(int));
static_assert(sizeof(CheckOp) == sizeof(int));

}  // namespace gpuvet::cuda::driver
