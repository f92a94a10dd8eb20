// Options every measuring command shares: the simulated machine (--sim, --fault) and the GPU
// selection (--gpus). Errors are usage errors naming the option and what was expected.
#pragma once

#include <string>
#include <vector>

#include "backends/sim/sim_state.hpp"
#include "core/error.hpp"
#include "core/machine.hpp"

namespace gpuvet::cli {

// Parses every --fault text and builds the simulated machine; --fault without --sim is an error.
core::Result<sim::SimState> simulated_state(const std::string& profile, const std::vector<std::string>& fault_texts);

// "0,2,5" or "0-3,6" -> GPU indices in the order given, each once; "" -> {} (every GPU).
core::Result<std::vector<int>> parse_gpu_list(const std::string& text);

// parse_gpu_list, each index checked to be a GPU of `machine` (nvidia-smi numbering); "" -> every
// GPU of the machine.
core::Result<std::vector<int>> select_gpus(const std::string& text, const core::Machine& machine);

}  // namespace gpuvet::cli
