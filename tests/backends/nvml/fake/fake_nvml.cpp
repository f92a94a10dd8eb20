// The fake libnvidia-ml.so.1: NVML's C entry points (exact names, signatures and struct layouts)
// serving a simulated machine. Read-only queries only. Built three ways: full; FAKE_NVML_MINIMAL
// (an old driver: no _v2/_v3 names, no optional newer symbols); FAKE_NVML_NO_COUNT (no device count).
// This file: init, errors, system, handles, identity, memory and PCI info; the rest in fake_nvml_device.cpp.
#include <algorithm>
#include <cstdlib>

#include "fake_common.hpp"

using namespace gpuvet::fake_nvml;  // NOLINT

namespace gpuvet::fake_nvml {
Globals& globals() {
  static Globals g;
  return g;
}
}  // namespace gpuvet::fake_nvml

namespace {

nvmlReturn_t init() {
  std::lock_guard<std::mutex> lock(globals().mutex);
  if (const char* forced = std::getenv("GPUVET_FAKE_NVML_INIT_ERROR"); forced != nullptr && *forced != '\0') {
    return std::atoi(forced);
  }
  if (globals().refcount == 0) {
    try {
      if (auto error = build_state(globals().state)) {
        globals().error_text = "fake NVML: " + *error;
        return kErrorUnknown;
      }
    } catch (...) {
      globals().error_text = "fake NVML: exception while simulating the machine";
      return kErrorUnknown;
    }
  }
  ++globals().refcount;
  return kSuccess;
}

[[maybe_unused]] nvmlReturn_t device_count(unsigned int* count) {
  std::lock_guard<std::mutex> lock(globals().mutex);
  if (globals().refcount == 0) return kErrorUninitialized;
  if (count == nullptr) return kErrorInvalidArgument;
  *count = static_cast<unsigned int>(globals().state.devices.size());
  return kSuccess;
}

nvmlReturn_t handle_by_index(unsigned int index, nvmlDevice_t* device) {
  std::lock_guard<std::mutex> lock(globals().mutex);
  if (globals().refcount == 0) return kErrorUninitialized;
  if (device == nullptr || index >= globals().state.devices.size()) return kErrorInvalidArgument;
  *device = reinterpret_cast<nvmlDevice_t>(&globals().state.devices[index]);
  return kSuccess;
}

nvmlReturn_t cuda_driver_version(int* version) {
  std::lock_guard<std::mutex> lock(globals().mutex);
  if (globals().refcount == 0) return kErrorUninitialized;
  int major = 0, minor = 0;
  const auto& cuda = globals().state.machine.cuda_version;
  if (!cuda.known() || std::sscanf(cuda->c_str(), "%d.%d", &major, &minor) != 2) return kErrorLibraryNotFound;
  *version = major * 1000 + minor * 10;
  return kSuccess;
}

}  // namespace

// ---- init, errors, system -------------------------------------------------------------------
#ifndef FAKE_NVML_MINIMAL
FAKE_EXPORT nvmlReturn_t nvmlInit_v2() { return init(); }
#endif
FAKE_EXPORT nvmlReturn_t nvmlInit() { return init(); }

FAKE_EXPORT nvmlReturn_t nvmlShutdown() {
  std::lock_guard<std::mutex> lock(globals().mutex);
  if (globals().refcount == 0) return kErrorUninitialized;
  if (--globals().refcount == 0) globals().state = FakeState{};
  return kSuccess;
}

FAKE_EXPORT const char* nvmlErrorString(nvmlReturn_t result) {
  switch (result) {
    case 0: return "Success";
    case 1: return "Uninitialized";
    case 2: return "Invalid Argument";
    case 3: return "Not Supported";
    case 4: return "Insufficient Permissions";
    case 7: return "Insufficient Size";
    case 9: return "Driver Not Loaded";
    case 12: return "NVML Shared Library Not Found";
    case 13: return "Function Not Found";
    case 15: return "GPU is lost";
    case 25: return "Argument version mismatch";
    case 999: return globals().error_text.empty() ? "Unknown Error" : globals().error_text.c_str();
    default: return "Unknown Error";
  }
}

FAKE_EXPORT nvmlReturn_t nvmlSystemGetDriverVersion(char* version, unsigned int length) {
  std::lock_guard<std::mutex> lock(globals().mutex);
  if (globals().refcount == 0) return kErrorUninitialized;
  return copy_string(globals().state.machine.driver_version, version, length);
}
#ifndef FAKE_NVML_MINIMAL
FAKE_EXPORT nvmlReturn_t nvmlSystemGetCudaDriverVersion_v2(int* v) { return cuda_driver_version(v); }
#endif
FAKE_EXPORT nvmlReturn_t nvmlSystemGetCudaDriverVersion(int* v) { return cuda_driver_version(v); }

#ifndef FAKE_NVML_NO_COUNT
#ifndef FAKE_NVML_MINIMAL
FAKE_EXPORT nvmlReturn_t nvmlDeviceGetCount_v2(unsigned int* count) { return device_count(count); }
#endif
FAKE_EXPORT nvmlReturn_t nvmlDeviceGetCount(unsigned int* count) { return device_count(count); }
#endif
#ifndef FAKE_NVML_MINIMAL
FAKE_EXPORT nvmlReturn_t nvmlDeviceGetHandleByIndex_v2(unsigned int i, nvmlDevice_t* d) { return handle_by_index(i, d); }
#endif
FAKE_EXPORT nvmlReturn_t nvmlDeviceGetHandleByIndex(unsigned int i, nvmlDevice_t* d) { return handle_by_index(i, d); }

// ---- identity ---------------------------------------------------------------------------------
FAKE_EXPORT nvmlReturn_t nvmlDeviceGetName(nvmlDevice_t h, char* out, unsigned int n) {
  return with_device(h, true, [&](FakeDevice& d) { return copy_string(d.gpu->name, out, n); });
}
FAKE_EXPORT nvmlReturn_t nvmlDeviceGetUUID(nvmlDevice_t h, char* out, unsigned int n) {
  return with_device(h, true, [&](FakeDevice& d) { return copy_string(d.gpu->uuid, out, n); });
}
FAKE_EXPORT nvmlReturn_t nvmlDeviceGetSerial(nvmlDevice_t h, char* out, unsigned int n) {
  return with_device(h, false, [&](FakeDevice& d) { return copy_string(d.gpu->serial, out, n); });
}
FAKE_EXPORT nvmlReturn_t nvmlDeviceGetBoardPartNumber(nvmlDevice_t h, char* out, unsigned int n) {
  return with_device(h, false, [&](FakeDevice& d) { return copy_string(d.gpu->board_part_number, out, n); });
}
FAKE_EXPORT nvmlReturn_t nvmlDeviceGetVbiosVersion(nvmlDevice_t h, char* out, unsigned int n) {
  return with_device(h, false, [&](FakeDevice& d) { return copy_string(d.gpu->vbios, out, n); });
}
FAKE_EXPORT nvmlReturn_t nvmlDeviceGetInforomImageVersion(nvmlDevice_t h, char* out, unsigned int n) {
  return with_device(h, false, [&](FakeDevice& d) { return copy_string(d.gpu->inforom_image, out, n); });
}
FAKE_EXPORT nvmlReturn_t nvmlDeviceGetArchitecture(nvmlDevice_t h, nvmlDeviceArchitecture_t* arch) {
  return with_device(h, false, [&](FakeDevice& d) {
    if (!d.architecture) return kErrorNotSupported;
    *arch = *d.architecture;
    return kSuccess;
  });
}
FAKE_EXPORT nvmlReturn_t nvmlDeviceGetCudaComputeCapability(nvmlDevice_t h, int* major, int* minor) {
  return with_device(h, false, [&](FakeDevice& d) {
    if (!d.compute_capability) return kErrorNotSupported;
    *major = d.compute_capability->first;
    *minor = d.compute_capability->second;
    return kSuccess;
  });
}

// ---- memory and PCI ---------------------------------------------------------------------------
#ifndef FAKE_NVML_MINIMAL
FAKE_EXPORT nvmlReturn_t nvmlDeviceGetMemoryInfo_v2(nvmlDevice_t h, nvmlMemory_v2_t* memory) {
  return with_device(h, false, [&](FakeDevice& d) {
    if (memory == nullptr) return kErrorInvalidArgument;
    if (memory->version != 0x02000028u) return kErrorArgumentVersionMismatch;
    if (!d.gpu->memory_total_mib.known()) return kErrorNotSupported;
    memory->total = d.gpu->memory_total_mib.value() * 1024ULL * 1024ULL;
    memory->reserved = 0;
    const auto used = live_sample(globals().state, d).fb_used_bytes;  // the production model's job
    memory->used = used.known() ? std::min<unsigned long long>(*used, memory->total) : 0;
    memory->free = memory->total - memory->used;
    return kSuccess;
  });
}
#endif
FAKE_EXPORT nvmlReturn_t nvmlDeviceGetMemoryInfo(nvmlDevice_t h, nvmlMemory_t* memory) {
  return with_device(h, false, [&](FakeDevice& d) {
    if (memory == nullptr) return kErrorInvalidArgument;
    if (!d.gpu->memory_total_mib.known()) return kErrorNotSupported;
    memory->total = d.gpu->memory_total_mib.value() * 1024ULL * 1024ULL;
    const auto used = live_sample(globals().state, d).fb_used_bytes;
    memory->used = used.known() ? std::min<unsigned long long>(*used, memory->total) : 0;
    memory->free = memory->total - memory->used;
    return kSuccess;
  });
}
#ifndef FAKE_NVML_MINIMAL
FAKE_EXPORT nvmlReturn_t nvmlDeviceGetPciInfo_v3(nvmlDevice_t h, nvmlPciInfo_t* pci) {
  return with_device(h, true, [&](FakeDevice& d) { return fill_pci(d.gpu->pci_bus_id.value_or(""), pci, true); });
}
#endif
FAKE_EXPORT nvmlReturn_t nvmlDeviceGetPciInfo_v2(nvmlDevice_t h, nvmlPciInfo_t* pci) {
  return with_device(h, true, [&](FakeDevice& d) { return fill_pci(d.gpu->pci_bus_id.value_or(""), pci, false); });
}
FAKE_EXPORT nvmlReturn_t nvmlDeviceGetPciInfo(nvmlDevice_t h, nvmlPciInfo_t* pci) {
  return with_device(h, true, [&](FakeDevice& d) { return fill_pci(d.gpu->pci_bus_id.value_or(""), pci, false); });
}

