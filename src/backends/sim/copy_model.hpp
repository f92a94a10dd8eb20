// The simulator's copy and memory backend: what a healthy (or faulted) machine of the profile
// would measure, from its links and the shares of line rate real hardware reaches, with seeded
// noise. These constants model hardware; the judge's expectations live apart in analysis/.
#pragma once

#include <cstdint>
#include <memory>

#include "backends/api/copy_backend.hpp"
#include "backends/sim/sim_state.hpp"

namespace gpuvet::sim {

// CUDA ordinals are the present GPUs in profile order (as NVML numbers them after gpu-missing).
std::unique_ptr<api::CopyBackend> make_copy_backend(SimState state, std::uint64_t seed);

}  // namespace gpuvet::sim
