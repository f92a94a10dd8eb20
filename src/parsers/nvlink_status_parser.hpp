// Parser of pasted `nvidia-smi nvlink -s` (nvlink --status) output into a core::Machine: one
// Gpu per "GPU N: NAME (UUID: ...)" block with its NVLink ports. Pure text -> model.
#pragma once

#include <string>
#include <string_view>

#include "core/error.hpp"
#include "core/machine.hpp"

namespace gpuvet::parsers {

// Reads "Link L: 26.562 GB/s" (active, speed per direction), "Link L: <inactive>", and the
// "NVML: Unable to retrieve NVLink information as all links are inActive" line (the GPU's
// nvlinks are known and empty; a note says so). A "..." line where the author cut GPUs out
// adds a note and leaves attached_gpus absent (it is absent anyway: -s does not state it).
// Also accepts `nvidia-smi nvlink -gt d` (per-link "Data Tx/Rx: N KiB" counters): the ports
// are listed, a port with traffic is taken as active, speeds stay absent, and a note says so.
// A paste cut short is said in a note, never read as a fault: a header cut by the end of the
// input leaves the GPU's name (without "(UUID:") and UUID absent; a cut last line ("Link 3: 26.5",
// "Lin") is skipped; a last GPU with fewer ports than another GPU of its model, or none, gets
// the missing ports with an absent state.
// file_name is used only in Machine::source and error messages; errors name file and line.
core::Result<core::Machine> parse_nvlink_status(std::string_view text, const std::string& file_name);

}  // namespace gpuvet::parsers
