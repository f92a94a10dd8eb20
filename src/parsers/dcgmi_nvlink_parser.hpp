// Parser of pasted `dcgmi nvlink -s` (--link-status) output: per GPU and NVSwitch a row of link
// states (U up, D down, X disabled, _ not supported). Pure text -> core::Machine.
#pragma once

#include <string>
#include <string_view>

#include "core/error.hpp"
#include "core/machine.hpp"

namespace gpuvet::parsers {

// True for the "NvLink Link Status" banner followed by a "gpuId N:" line. Used by detect_format.
bool looks_like_dcgmi_nvlink(std::string_view text);

// One Gpu per "gpuId N:" with one port per state letter: U active, D inactive (down), X inactive
// (disabled, said in a note), _ not a port of this GPU (left out). An "NvSwitches:" section with a
// physicalId sets nvswitch_present. DCGM's gpuId is its own numbering (usually nvidia-smi's
// index); names, bus ids and link speeds are not in this view. Errors name file and line.
core::Result<core::Machine> parse_dcgmi_nvlink(std::string_view text, const std::string& file_name);

}  // namespace gpuvet::parsers
