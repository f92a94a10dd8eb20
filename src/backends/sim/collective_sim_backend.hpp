// The simulator's CollectiveBackend: the collective model of a simulated machine, with seeded
// noise per iteration. Every number it returns is simulated, and describe() says so.
#pragma once

#include <cstdint>
#include <memory>

#include "backends/api/collective_backend.hpp"
#include "backends/sim/sim_state.hpp"

namespace gpuvet::sim {

// Ordinals are the positions of the GPUs the machine renders (present GPUs in profile order),
// as CUDA would number them. Same state and seed: same samples, in the same call order.
std::unique_ptr<api::CollectiveBackend> make_collective_backend(const SimState& state, std::uint64_t seed);

}  // namespace gpuvet::sim
