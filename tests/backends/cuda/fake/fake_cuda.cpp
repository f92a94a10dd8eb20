// A fake libcuda.so.1 for tests on machines without a GPU: it exports every symbol of gpuvet's
// driver table (src/backends/cuda/cuda_driver.hpp) with the driver's C ABI, reports a configurable
// driver version and number of GPUs, keeps count of retained primary contexts, accepts only a real
// fatbin in cuModuleLoadData and finds kernels by name in it. It runs nothing: every allocation
// fails with CUDA_ERROR_OUT_OF_MEMORY and pinned host memory is "not supported", so the backend's
// error paths are what can be tested. Read at each call (so one test process can switch):
//   GPUVET_FAKE_CUDA_VERSION     cuDriverGetVersion's value (default FAKE_CUDA_DEFAULT_VERSION)
//   GPUVET_FAKE_CUDA_DEVICES     number of GPUs (default 0)
//   GPUVET_FAKE_CUDA_INIT_ERROR  CUresult cuInit returns (default 0)
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string_view>

namespace {

using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
struct Opaque;
using Handle = Opaque*;

constexpr CUresult kSuccess = 0;
constexpr CUresult kInvalidValue = 1;
constexpr CUresult kOutOfMemory = 2;
constexpr CUresult kNotInitialized = 3;
constexpr CUresult kInvalidDevice = 101;
constexpr CUresult kInvalidImage = 200;
constexpr CUresult kInvalidContext = 201;
constexpr CUresult kNotFound = 500;
constexpr CUresult kNotSupported = 801;

int env_int(const char* name, int fallback) {
  const char* value = std::getenv(name);
  return value != nullptr && *value != '\0' ? std::atoi(value) : fallback;
}
int device_count() { return env_int("GPUVET_FAKE_CUDA_DEVICES", 0); }

std::atomic<bool> g_initialised{false};
std::atomic<int> g_retained{0};
std::atomic<int> g_launches{0};
thread_local Handle t_current = nullptr;

Handle context_of(CUdevice d) { return reinterpret_cast<Handle>(static_cast<std::uintptr_t>(0x1000 + d * 0x100)); }

struct Module {
  const unsigned char* image = nullptr;
  std::size_t size = 0;
};

CUresult not_supported() { return g_initialised ? kNotSupported : kNotInitialized; }

}  // namespace

#define FAKE_API extern "C" __attribute__((visibility("default")))

// Test hooks.
FAKE_API int gpuvet_fake_cuda_retained() { return g_retained.load(); }
FAKE_API int gpuvet_fake_cuda_launches() { return g_launches.load(); }

FAKE_API CUresult cuInit(unsigned flags) {
  if (flags != 0) return kInvalidValue;
  const CUresult rc = env_int("GPUVET_FAKE_CUDA_INIT_ERROR", 0);
  if (rc == kSuccess) g_initialised = true;
  return rc;
}

FAKE_API CUresult cuDriverGetVersion(int* version) {
  if (version == nullptr) return kInvalidValue;
  *version = env_int("GPUVET_FAKE_CUDA_VERSION", FAKE_CUDA_DEFAULT_VERSION);
  return kSuccess;
}

FAKE_API CUresult cuGetErrorName(CUresult code, const char** name) {
  switch (code) {
    case 0: *name = "CUDA_SUCCESS"; return kSuccess;
    case 1: *name = "CUDA_ERROR_INVALID_VALUE"; return kSuccess;
    case 2: *name = "CUDA_ERROR_OUT_OF_MEMORY"; return kSuccess;
    case 3: *name = "CUDA_ERROR_NOT_INITIALIZED"; return kSuccess;
    case 100: *name = "CUDA_ERROR_NO_DEVICE"; return kSuccess;
    case 101: *name = "CUDA_ERROR_INVALID_DEVICE"; return kSuccess;
    case 200: *name = "CUDA_ERROR_INVALID_IMAGE"; return kSuccess;
    case 201: *name = "CUDA_ERROR_INVALID_CONTEXT"; return kSuccess;
    case 500: *name = "CUDA_ERROR_NOT_FOUND"; return kSuccess;
    case 801: *name = "CUDA_ERROR_NOT_SUPPORTED"; return kSuccess;
    default: *name = nullptr; return kInvalidValue;
  }
}

FAKE_API CUresult cuGetErrorString(CUresult code, const char** words) {
  switch (code) {
    case 0: *words = "no error"; return kSuccess;
    case 1: *words = "invalid argument"; return kSuccess;
    case 2: *words = "out of memory"; return kSuccess;
    case 3: *words = "initialization error"; return kSuccess;
    case 100: *words = "no CUDA-capable device is detected"; return kSuccess;
    case 101: *words = "invalid device ordinal"; return kSuccess;
    case 200: *words = "device kernel image is invalid"; return kSuccess;
    case 201: *words = "invalid device context"; return kSuccess;
    case 500: *words = "named symbol not found"; return kSuccess;
    case 801: *words = "operation not supported"; return kSuccess;
    default: *words = nullptr; return kInvalidValue;
  }
}

FAKE_API CUresult cuDeviceGetCount(int* count) {
  if (!g_initialised) return kNotInitialized;
  *count = device_count();
  return kSuccess;
}

FAKE_API CUresult cuDeviceGet(CUdevice* device, int ordinal) {
  if (!g_initialised) return kNotInitialized;
  if (ordinal < 0 || ordinal >= device_count()) return kInvalidDevice;
  *device = ordinal;
  return kSuccess;
}

FAKE_API CUresult cuDeviceGetName(char* name, int length, CUdevice device) {
  if (device < 0 || device >= device_count()) return kInvalidDevice;
  std::snprintf(name, static_cast<std::size_t>(length), "Fake GPU %d", device);
  return kSuccess;
}

FAKE_API CUresult cuDeviceGetAttribute(int* value, int attribute, CUdevice device) {
  if (device < 0 || device >= device_count()) return kInvalidDevice;
  switch (attribute) {
    case 16: *value = 132; return kSuccess;              // multiprocessors
    case 33: *value = 0x18 + 0x10 * device; return kSuccess;  // PCI bus
    case 34: *value = 0; return kSuccess;                // PCI device
    case 50: *value = 0; return kSuccess;                // PCI domain
    case 75: *value = 9; return kSuccess;                // compute capability 9.0
    case 76: *value = 0; return kSuccess;
    default: return kInvalidValue;
  }
}

FAKE_API CUresult cuDeviceGetPCIBusId(char* text, int length, CUdevice device) {
  if (device < 0 || device >= device_count()) return kInvalidDevice;
  std::snprintf(text, static_cast<std::size_t>(length), "00000000:%02X:00.0", 0x18 + 0x10 * device);
  return kSuccess;
}

FAKE_API CUresult cuDeviceCanAccessPeer(int* can, CUdevice, CUdevice) {
  *can = 1;
  return kSuccess;
}

FAKE_API CUresult cuDevicePrimaryCtxRetain(Handle* context, CUdevice device) {
  if (!g_initialised) return kNotInitialized;
  if (device < 0 || device >= device_count()) return kInvalidDevice;
  ++g_retained;
  *context = context_of(device);
  return kSuccess;
}

FAKE_API CUresult cuDevicePrimaryCtxRelease_v2(CUdevice device) {
  if (device < 0 || device >= device_count()) return kInvalidDevice;
  --g_retained;
  return kSuccess;
}

FAKE_API CUresult cuCtxSetCurrent(Handle context) {
  t_current = context;
  return kSuccess;
}

FAKE_API CUresult cuCtxGetCurrent(Handle* context) {
  *context = t_current;
  return kSuccess;
}

FAKE_API CUresult cuCtxSynchronize() { return t_current != nullptr ? kSuccess : kInvalidContext; }
FAKE_API CUresult cuCtxEnablePeerAccess(Handle, unsigned) { return not_supported(); }

FAKE_API CUresult cuMemGetInfo_v2(std::size_t* free_bytes, std::size_t* total_bytes) {
  if (t_current == nullptr) return kInvalidContext;
  *total_bytes = std::size_t{80} << 30;
  *free_bytes = std::size_t{79} << 30;
  return kSuccess;
}

FAKE_API CUresult cuMemAlloc_v2(CUdeviceptr*, std::size_t) { return t_current != nullptr ? kOutOfMemory : kInvalidContext; }
FAKE_API CUresult cuMemFree_v2(CUdeviceptr) { return kInvalidValue; }
FAKE_API CUresult cuMemHostAlloc(void**, std::size_t, unsigned) { return not_supported(); }
FAKE_API CUresult cuMemFreeHost(void*) { return kInvalidValue; }
FAKE_API CUresult cuMemHostRegister_v2(void*, std::size_t, unsigned) { return not_supported(); }
FAKE_API CUresult cuMemHostUnregister(void*) { return kInvalidValue; }
FAKE_API CUresult cuMemHostGetDevicePointer_v2(CUdeviceptr*, void*, unsigned) { return kInvalidValue; }
FAKE_API CUresult cuMemsetD8_v2(CUdeviceptr, unsigned char, std::size_t) { return kInvalidValue; }
FAKE_API CUresult cuMemsetD8Async(CUdeviceptr, unsigned char, std::size_t, Handle) { return kInvalidValue; }
FAKE_API CUresult cuMemcpy(CUdeviceptr, CUdeviceptr, std::size_t) { return kInvalidValue; }
FAKE_API CUresult cuMemcpyAsync(CUdeviceptr, CUdeviceptr, std::size_t, Handle) { return kInvalidValue; }
FAKE_API CUresult cuMemcpyPeerAsync(CUdeviceptr, Handle, CUdeviceptr, Handle, std::size_t, Handle) { return kInvalidValue; }
FAKE_API CUresult cuMemcpyHtoD_v2(CUdeviceptr, const void*, std::size_t) { return kInvalidValue; }
FAKE_API CUresult cuMemcpyDtoH_v2(void*, CUdeviceptr, std::size_t) { return kInvalidValue; }
FAKE_API CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr, const void*, std::size_t, Handle) { return kInvalidValue; }
FAKE_API CUresult cuMemcpyDtoHAsync_v2(void*, CUdeviceptr, std::size_t, Handle) { return kInvalidValue; }
FAKE_API CUresult cuStreamCreate(Handle*, unsigned) { return not_supported(); }
FAKE_API CUresult cuStreamDestroy_v2(Handle) { return kInvalidValue; }
FAKE_API CUresult cuStreamSynchronize(Handle) { return kInvalidValue; }
FAKE_API CUresult cuEventCreate(Handle*, unsigned) { return not_supported(); }
FAKE_API CUresult cuEventDestroy_v2(Handle) { return kInvalidValue; }
FAKE_API CUresult cuEventRecord(Handle, Handle) { return kInvalidValue; }
FAKE_API CUresult cuEventQuery(Handle) { return kInvalidValue; }
// Only the pre-12.8 name: the table must fall back to it, as on a 525-565 driver.
FAKE_API CUresult cuEventElapsedTime(float*, Handle, Handle) { return kInvalidValue; }

FAKE_API CUresult cuModuleLoadData(Handle* module, const void* image) {
  if (t_current == nullptr) return kInvalidContext;
  const auto* bytes = static_cast<const unsigned char*>(image);
  std::uint32_t magic = 0;
  std::uint64_t body = 0;
  std::uint16_t header = 0;
  std::memcpy(&magic, bytes, 4);
  if (magic != 0xBA55ED50u) return kInvalidImage;
  std::memcpy(&header, bytes + 6, 2);
  std::memcpy(&body, bytes + 8, 8);
  *module = reinterpret_cast<Handle>(new Module{bytes, header + body});
  return kSuccess;
}

FAKE_API CUresult cuModuleUnload(Handle module) {
  delete reinterpret_cast<Module*>(module);
  return kSuccess;
}

// A kernel "exists" when its name, NUL-terminated, is in the image (the cubins' string tables).
FAKE_API CUresult cuModuleGetFunction(Handle* function, Handle module, const char* name) {
  const auto* m = reinterpret_cast<const Module*>(module);
  const std::string_view image(reinterpret_cast<const char*>(m->image), m->size);
  const std::string_view wanted(name, std::strlen(name) + 1);
  for (std::size_t at = image.find(wanted); at != std::string_view::npos; at = image.find(wanted, at + 1)) {
    if (at > 0 && (image[at - 1] == '\0' || image[at - 1] == '.')) {
      *function = reinterpret_cast<Handle>(const_cast<char*>(image.data() + at));
      return kSuccess;
    }
  }
  return kNotFound;
}

FAKE_API CUresult cuLaunchKernel(Handle function, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                                 Handle, void** params, void**) {
  if (function == nullptr || params == nullptr || t_current == nullptr) return kInvalidValue;
  ++g_launches;
  return kSuccess;
}
