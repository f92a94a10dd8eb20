// Helpers shared by the fake NVML entry points: the global state, the lock, and the checks every
// device call makes. Internal to the fake library.
#pragma once

#include <chrono>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <string>
#include <thread>

#include "fake_state.hpp"

#define FAKE_EXPORT extern "C" __attribute__((visibility("default")))

namespace gpuvet::fake_nvml {

using namespace gpuvet::nvml;  // NOLINT: the NVML ABI types and constants

struct Globals {
  std::mutex mutex;
  int refcount = 0;
  FakeState state;
  std::string error_text;
};
Globals& globals();

inline FakeDevice* find_device(nvmlDevice_t handle) {
  for (auto& d : globals().state.devices) {
    if (reinterpret_cast<nvmlDevice_t>(&d) == handle) return &d;
  }
  return nullptr;
}

// Runs `f(device)` under the lock after the checks every device call makes. Identity calls
// (name, UUID, PCI info) still answer on a lost GPU, as the driver caches them.
template <class F>
nvmlReturn_t with_device(nvmlDevice_t handle, bool identity, F&& f) {
  std::lock_guard<std::mutex> lock(globals().mutex);
  if (globals().refcount == 0) return kErrorUninitialized;
  FakeDevice* d = find_device(handle);
  if (d == nullptr) return kErrorInvalidArgument;
  if (!identity && (d->lost || model_lost(globals().state, *d))) return kErrorGpuIsLost;
  return f(*d);
}

// A telemetry call: blocks first when the hang fault holds this GPU (outside the lock, so the
// other GPUs keep answering), then runs `f(device, sample)` with the model's sample of now.
template <class F>
nvmlReturn_t with_live_device(nvmlDevice_t handle, F&& f) {
  double hang_s = 0;
  {
    std::lock_guard<std::mutex> lock(globals().mutex);
    if (FakeDevice* d = find_device(handle); d != nullptr && globals().refcount > 0) {
      hang_s = hang_seconds(globals().state, *d);
    }
  }
  if (hang_s > 0) std::this_thread::sleep_for(std::chrono::duration<double>(hang_s));
  return with_device(handle, false, [&](FakeDevice& d) { return f(d, live_sample(globals().state, d)); });
}

inline nvmlReturn_t copy_string(const core::Reading<std::string>& value, char* out, unsigned int length) {
  if (!value.known()) return kErrorNotSupported;
  if (out == nullptr) return kErrorInvalidArgument;
  if (value->size() + 1 > length) return kErrorInsufficientSize;
  std::memcpy(out, value->c_str(), value->size() + 1);
  return kSuccess;
}

template <class T, class Out>
nvmlReturn_t copy_value(const core::Reading<T>& value, Out* out) {
  if (!value.known()) return kErrorNotSupported;
  if (out == nullptr) return kErrorInvalidArgument;
  *out = static_cast<Out>(value.value());
  return kSuccess;
}

inline nvmlReturn_t fill_pci(const std::string& bus_id, nvmlPciInfo_t* pci, bool v3) {
  unsigned domain = 0, bus = 0, device = 0;
  if (!parse_bus_id(bus_id, domain, bus, device)) return kErrorNotSupported;
  if (pci == nullptr) return kErrorInvalidArgument;
  std::snprintf(pci->busIdLegacy, sizeof pci->busIdLegacy, "%04X:%02X:%02X.0", domain, bus, device);
  pci->domain = domain;
  pci->bus = bus;
  pci->device = device;
  pci->pciDeviceId = 0x233010DEu;  // device 0x2330, vendor NVIDIA
  pci->pciSubSystemId = 0x16C110DEu;
  // Older entry points fill the 52-byte layout only; busId at offset 36 belongs to _v3.
  if (v3) std::snprintf(pci->busId, sizeof pci->busId, "%08X:%02X:%02X.0", domain, bus, device);
  return kSuccess;
}

// Common checks of the per-link calls; on success `port` is set.
inline nvmlReturn_t port_of(const FakeDevice& d, unsigned int link, const FakePort*& port) {
  if (!d.ports) return kErrorNotSupported;
  if (link >= d.port_count) return kErrorInvalidArgument;
  port = nullptr;
  for (const auto& p : *d.ports) {
    if (p.link == static_cast<int>(link)) port = &p;
  }
  return port == nullptr ? kErrorNotSupported : kSuccess;
}

}  // namespace gpuvet::fake_nvml
