// Per-GPU NVML call wrapper used by the reader: turns each call's outcome into a Reading
// (missing symbol, NOT_SUPPORTED, other errors) and latches GPU_IS_LOST so the GPU's remaining
// readings are absent without further calls. Internal to the NVML backend; single-threaded.
#pragma once

#include <optional>
#include <string>
#include <utility>

#include "backends/nvml/nvml_library.hpp"
#include "core/reading.hpp"

namespace gpuvet::nvml {

inline constexpr const char* kNotSupported = "not supported on this GPU";
inline constexpr const char* kGpuLost = "GPU fell off the bus (NVML_ERROR_GPU_IS_LOST)";

class DeviceReader {
 public:
  DeviceReader(const NvmlLibrary& library, nvmlDevice_t device, int index)
      : library_(&library), device_(device), index_(index) {}

  [[nodiscard]] const NvmlLibrary& library() const { return *library_; }
  [[nodiscard]] const Api& api() const { return library_->api(); }
  [[nodiscard]] nvmlDevice_t device() const { return device_; }
  [[nodiscard]] int index() const { return index_; }
  [[nodiscard]] bool lost() const { return lost_; }
  // What the GPU was being asked when it was lost ("nvmlDeviceGetRemappedRows"); empty if not lost.
  [[nodiscard]] const std::string& lost_during() const { return lost_during_; }

  // Why `symbol` cannot be called now (missing from the library, or the GPU is lost); nullopt if it can.
  [[nodiscard]] std::optional<std::string> unavailable(Symbol symbol) const {
    if (lost_) return std::string(kGpuLost);
    if (!library_->has(symbol)) return library_->missing_reason(symbol);
    return std::nullopt;
  }

  // The absence reason for a failed call; latches GPU_IS_LOST.
  std::string failure(Symbol symbol, nvmlReturn_t code) {
    if (code == kErrorNotSupported) return kNotSupported;
    if (code == kErrorGpuIsLost) {
      if (!lost_) lost_during_ = std::string(library_->resolved_name(symbol));
      lost_ = true;
      return kGpuLost;
    }
    return std::string(library_->resolved_name(symbol)) + ": " + library_->describe(code);
  }

  // Calls `call(value)` (which returns an nvmlReturn_t) when possible and wraps the outcome.
  template <class T, class Call>
  core::Reading<T> query(Symbol symbol, Call&& call) {
    if (auto why = unavailable(symbol)) return core::Reading<T>::absent(*why);
    T value{};
    const nvmlReturn_t code = std::forward<Call>(call)(value);
    if (code != kSuccess) return core::Reading<T>::absent(failure(symbol, code));
    return core::Reading<T>(std::move(value));
  }

 private:
  const NvmlLibrary* library_;
  nvmlDevice_t device_;
  int index_;
  bool lost_ = false;
  std::string lost_during_;
};

// Maps a Reading<T> to Reading<U>, keeping the absence reason.
template <class U, class T, class F>
core::Reading<U> map_reading(const core::Reading<T>& in, F&& f) {
  if (!in.known()) return core::Reading<U>::absent(in.reason());
  return core::Reading<U>(f(in.value()));
}

}  // namespace gpuvet::nvml
