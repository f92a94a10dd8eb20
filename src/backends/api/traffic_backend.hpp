// What a backend must offer to load the links during a burn-in (`gpuvet burnin --traffic`): NCCL
// collectives across the chosen GPUs, ring-neighbour sends and host<->device copies, on streams of
// their own beside the GEMM load, busy for a share of the time; and, per poll, what they achieved
// since the previous poll (core::TrafficInterval without its times). Implemented by backends/sim
// (the burn-in model, in virtual time); a real backend runs NCCL and CUDA copies on its own threads.
// Called by the burn-in runner from its sampling thread, once per traffic interval.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "core/traffic.hpp"

namespace gpuvet::api {

struct TrafficConfig {
  core::TrafficSettings settings;
  std::vector<int> gpus;                       // run indices, ring order
  std::uint64_t collective_bytes = 256ull << 20;  // per collective call (nccl-tests' size)
  std::uint64_t copy_bytes = 64ull << 20;      // per copy
};

struct TrafficStatus {
  bool running = false;
  std::vector<core::CollectiveTraffic> collectives;  // one per collective asked for
  std::vector<core::GpuTraffic> gpus;                // one per GPU of the config (gemm_digest left absent)
  std::string error;                                 // why the traffic stopped, when it stopped by itself
};

class TrafficBackend {
 public:
  virtual ~TrafficBackend() = default;
  [[nodiscard]] virtual std::string describe() const = 0;
  [[nodiscard]] virtual bool simulated() const = 0;
  // Starts the traffic at run time t_s. Environment error when it cannot run (no NCCL, one GPU).
  virtual std::optional<core::Error> start(const TrafficConfig& config, double t_s) = 0;
  // What the traffic achieved since the previous poll (or the start). A reading the traffic could
  // not take is absent with the reason (a GPU lost, a collective not asked for).
  virtual TrafficStatus poll(double t_s) = 0;
  // Stops every stream (idempotent); returns when the links are idle.
  virtual void stop(double t_s) = 0;
};

}  // namespace gpuvet::api
