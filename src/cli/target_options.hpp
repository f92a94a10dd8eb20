// The GPU selection every measuring command shares (--gpus); the machine itself (--sim, --fault,
// --seed) is cli/target.hpp. Errors are usage errors naming the option and what was expected.
#pragma once

#include <string>
#include <vector>

#include "core/error.hpp"
#include "core/machine.hpp"

namespace gpuvet::cli {

// "0,2,5" or "0-3,6" -> GPU indices in the order given, each once; "" -> {} (every GPU).
core::Result<std::vector<int>> parse_gpu_list(const std::string& text);

// parse_gpu_list, each index checked to be a GPU of `machine` (nvidia-smi numbering); "" -> every
// GPU of the machine.
core::Result<std::vector<int>> select_gpus(const std::string& text, const core::Machine& machine);

}  // namespace gpuvet::cli
