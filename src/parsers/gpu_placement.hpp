// Places the GPUs of a part whose GPU numbers are only section positions (nvidia-smi -q and
// -q -x number nothing: their GPU N is the Nth section) before merge_machines matches GPUs by
// index. Called by machine_merge.cpp.
#pragma once

#include <string>
#include <vector>

#include "core/machine.hpp"

namespace gpuvet::parsers {

// True for a part whose GPU indices are positions in the output, not nvidia-smi's numbers.
bool gpu_indices_are_positions(const core::Machine& part);

// nvidia-smi -q -i N prints one GPU section, and a trimmed paste prints some: their positions
// are not the GPUs' numbers, so such a part (positional, with fewer GPUs than another part or its
// own attached count) never merges by position when another part lists GPUs. Each of its GPUs
// takes the index of the GPU another part names with the same PCI bus id, UUID or serial (an
// identity two GPUs of that part share, as on the hosts of a multi-node log, is not used); a GPU
// no other part names is left out of the merge with a note naming the file, the GPU and why.
// Parts with all their GPUs, and inputs where no other part lists GPUs, are returned unchanged.
// Notes are appended to `notes`.
std::vector<core::Machine> place_positional_gpus(std::vector<core::Machine> parts, std::vector<std::string>& notes);

}  // namespace gpuvet::parsers
