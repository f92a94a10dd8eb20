// What `gpuvet burnin` and the burn-in stage of `gpuvet accept` share: the backends that load and
// watch the GPUs (NVML + CUDA on a live machine, the simulator's burn-in model with --sim), and
// the SIGINT/SIGTERM handling that ends a live burn-in cleanly with everything recorded so far.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "backends/api/stress_backend.hpp"
#include "backends/api/telemetry_source.hpp"
#include "core/error.hpp"

namespace gpuvet::cli {

struct BurninBackends {
  std::unique_ptr<api::TelemetrySource> telemetry;
  std::unique_ptr<api::StressBackend> stress;
};

// `sim_profile` empty: the live machine. Fault texts need a profile.
core::Result<BurninBackends> open_burnin_backends(const std::string& sim_profile, const std::vector<std::string>& faults,
                                                  std::uint64_t seed, const std::string& dtype);

// While alive, SIGINT and SIGTERM set flag() instead of killing the process; the previous
// handlers come back on destruction. One at a time.
class InterruptGuard {
 public:
  InterruptGuard();
  ~InterruptGuard();
  InterruptGuard(const InterruptGuard&) = delete;
  InterruptGuard& operator=(const InterruptGuard&) = delete;
  [[nodiscard]] static const std::atomic<bool>* flag();

 private:
  void (*previous_int_)(int) = nullptr;
  void (*previous_term_)(int) = nullptr;
};

}  // namespace gpuvet::cli
