// Test helpers: point the fake libnvidia-ml.so.1 at a simulated machine (through the environment it
// reads at nvmlInit) and read it with the real NVML backend.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "backends/nvml/nvml_reader.hpp"

namespace gpuvet::nvml::testing {

inline constexpr const char* kFullLibrary = GPUVET_FAKE_NVML_FULL;
inline constexpr const char* kMinimalLibrary = GPUVET_FAKE_NVML_MINIMAL;
inline constexpr const char* kNoCountLibrary = GPUVET_FAKE_NVML_NO_COUNT;

struct FakeSetup {
  std::string profile = "hgx-h100-8x";
  std::string faults;      // ';'-separated fault texts
  std::string init_error;  // nvmlReturn_t code nvmlInit returns, empty for success
  std::string lost_gpus;   // comma-separated NVML indices
};

inline void set_or_unset(const char* name, const std::string& value) {
  if (value.empty()) {
    unsetenv(name);
  } else {
    setenv(name, value.c_str(), 1);
  }
}

inline void configure_fake(const FakeSetup& setup) {
  set_or_unset("GPUVET_FAKE_NVML_PROFILE", setup.profile);
  set_or_unset("GPUVET_FAKE_NVML_FAULTS", setup.faults);
  set_or_unset("GPUVET_FAKE_NVML_INIT_ERROR", setup.init_error);
  set_or_unset("GPUVET_FAKE_NVML_LOST_GPUS", setup.lost_gpus);
}

inline core::Result<core::Machine> read_fake(const char* library, const FakeSetup& setup) {
  configure_fake(setup);
  return read_machine(library);
}

}  // namespace gpuvet::nvml::testing
