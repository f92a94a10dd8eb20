// The machine a measuring command runs against, opened once per run from one set of target
// options: with --sim the profile and its faults are composed once (one SimState shared by the
// picture and every simulated backend, one seed rule); live, the picture comes from NVML + sysfs
// and the backends from CUDA, NCCL and NVML. bench, nccl, burnin and accept all open it here.
// Used on the command's thread; each backend is opened at most once, on first use.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "backends/api/collective_backend.hpp"
#include "backends/api/copy_backend.hpp"
#include "backends/api/stress_backend.hpp"
#include "backends/api/telemetry_source.hpp"
#include "backends/api/traffic_backend.hpp"
#include "core/error.hpp"
#include "core/machine.hpp"

namespace gpuvet::sim {
struct SimState;
}

namespace gpuvet::cli {

// --sim, --fault, --seed and --sysfs-root as every measuring command takes them.
struct TargetOptions {
  std::string sim_profile;          // empty: this machine
  std::vector<std::string> faults;  // overlays on the simulated machine; need sim_profile
  std::uint64_t seed = 1;           // the simulator's noise (--seed); ignored live
  std::string sysfs_root = "/";     // live only
};

// The GEMM load and the telemetry that watches it, opened together (the simulator's share one
// model: the load heats the GPUs the telemetry reports).
struct BurninBackends {
  std::unique_ptr<api::TelemetrySource> telemetry;
  std::unique_ptr<api::StressBackend> stress;
  std::unique_ptr<api::TrafficBackend> traffic;  // link traffic beside the load; null live (not built yet)
};

class Target {
 public:
  // Parses the faults and composes the simulated machine (usage errors name the fault or the
  // profile), or prepares to read this machine; --fault without --sim is a usage error.
  static core::Result<Target> open(const TargetOptions& options);

  Target(Target&&) noexcept;
  Target& operator=(Target&&) noexcept;
  ~Target();

  [[nodiscard]] bool simulated() const { return state_ != nullptr; }
  [[nodiscard]] const TargetOptions& options() const { return options_; }
  // "simulated: hgx-h100-8x" or "live (NVML + CUDA)": what the burn-in record names as its source.
  [[nodiscard]] std::string source() const;

  // The machine picture: rendered from the simulation, or read live (NVML, then sysfs) on the
  // first call; an error there is an environment error saying whether GPUs are on the bus.
  const core::Result<core::Machine>& machine();

  // The simulator's seed rule, in one place: copies and collectives draw from the profile's
  // seed xor the run's --seed; the burn-in model mixes the two itself (burnin_model.cpp).
  [[nodiscard]] std::uint64_t noise_seed() const;

  // Copy/VRAM backend, shared: the VRAM check frees the buffers the bandwidth probe cached,
  // which only works on the same backend. Live: CUDA.
  core::Result<std::shared_ptr<api::CopyBackend>> copies();
  // Collectives. Live: NCCL from $GPUVET_NCCL_LIBRARY (default libnccl.so.2).
  core::Result<std::shared_ptr<api::CollectiveBackend>> collectives();
  // Load and telemetry for a burn-in in `dtype`; each call opens a fresh pair (a burn-in owns them).
  core::Result<BurninBackends> burnin(const std::string& dtype);

 private:
  Target() = default;
  TargetOptions options_;
  std::shared_ptr<const sim::SimState> state_;
  std::optional<core::Result<core::Machine>> machine_;
  std::shared_ptr<api::CopyBackend> copies_;
  std::shared_ptr<api::CollectiveBackend> collectives_;
};

}  // namespace gpuvet::cli
