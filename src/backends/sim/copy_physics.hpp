// The rates a simulated machine's copies reach (internal to the simulator; copy_model.cpp adds
// noise and serves them through api::CopyBackend).
#pragma once

#include <optional>
#include <chrono>
#include <vector>

#include "backends/api/copy_backend.hpp"
#include "backends/sim/sim_state.hpp"

namespace gpuvet::sim {

class CopyPhysics {
 public:
  explicit CopyPhysics(SimState state);

  [[nodiscard]] const SimState& state() const { return state_; }
  [[nodiscard]] int device_count() const { return static_cast<int>(ordinals_.size()); }
  // Profile index of a CUDA ordinal.
  [[nodiscard]] int gpu_of(int ordinal) const { return ordinals_[static_cast<std::size_t>(ordinal)]; }
  [[nodiscard]] std::optional<core::Error> check_ordinal(int ordinal) const;
  [[nodiscard]] bool peer_access(int a, int b) const;

  // GB/s per stream when all streams of the request run together (no noise).
  [[nodiscard]] core::Result<std::vector<double>> concurrent_rates(const api::CopyRequest& request) const;
  [[nodiscard]] core::Result<double> latency_ns(const api::LatencyRequest& request) const;
  [[nodiscard]] core::Result<core::VramCheck> vram_check(const api::VramRequest& request) const;

 private:
  [[nodiscard]] double pcie_line_gbps(int gpu) const;
  [[nodiscard]] double nvlink_line_gbps(int a, int b) const;
  [[nodiscard]] double nvlink_port_gbps(int gpu) const;
  [[nodiscard]] double slow_link_factor(int a, int b) const;

  SimState state_;
  std::vector<int> ordinals_;
};

}  // namespace gpuvet::sim
