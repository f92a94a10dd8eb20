// Analytic model of NCCL collectives on a simulated machine: ring (and NVLS on NVSwitch gen 3+)
// with a latency term and a bandwidth term over the simulated topology, faults applied. These are
// the simulator's own hardware assumptions; the judge's expectations live in
// analysis/collective_envelope.cpp and are never read here.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "backends/api/collective_backend.hpp"
#include "backends/sim/sim_state.hpp"

namespace gpuvet::sim {

// How data moves between two GPUs in the model.
enum class PathKind { nvswitch, nvlink, pcie_p2p, host_memory };

struct PairPath {
  PathKind kind = PathKind::host_memory;
  double planned_gbps = 0;  // what NCCL's topology search sees (visible faults only), GB/s per direction
  double actual_gbps = 0;   // what the data gets: hidden faults (slow-link, straggler) applied too
  double latency_us = 0;    // per pipeline step
};

struct CollectiveEstimate {
  double time_us = 0;       // per iteration, noise-free
  std::string algorithm;    // "ring", "nvls", "alltoall", "p2p", "local"
  std::vector<int> ring;    // rank order NCCL would use (ring algorithms), profile indices
};

class CollectiveModel {
 public:
  // Keeps a reference: `state` must outlive the model.
  explicit CollectiveModel(const SimState& state) : state_(state) {}
  explicit CollectiveModel(SimState&&) = delete;

  // GPUs are profile indices (SimState::gpus, present ones), in rank order; bytes as nccl-tests
  // prints the size of `op` (see api::CollectiveRequest).
  [[nodiscard]] CollectiveEstimate estimate(api::CollectiveOp op, const std::vector<int>& gpus, std::uint64_t bytes,
                                            bool in_place) const;
  [[nodiscard]] PairPath path(int a, int b) const;

 private:
  [[nodiscard]] double pcie_gbps(int gpu) const;
  [[nodiscard]] double nvlink_egress_gbps(int gpu) const;  // NVSwitch: the GPU's active ports x link rate
  [[nodiscard]] bool nvls_usable(const std::vector<int>& gpus) const;
  [[nodiscard]] std::vector<int> best_ring(const std::vector<int>& gpus) const;
  [[nodiscard]] double alltoall_us(const std::vector<int>& gpus, std::uint64_t bytes) const;

  const SimState& state_;
};

}  // namespace gpuvet::sim
