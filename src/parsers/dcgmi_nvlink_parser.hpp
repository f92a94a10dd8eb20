// Parser of pasted `dcgmi nvlink -s` (--link-status) output: per GPU and NVSwitch a row of link
// states (U up, D down, X disabled, _ not supported). Pure text -> core::Machine.
#pragma once

#include <string>
#include <string_view>

#include "core/error.hpp"
#include "core/machine.hpp"

namespace gpuvet::parsers {

// True for the "NvLink Link Status" banner followed by a "gpuId N:" line, or dcgmi nvlink -e's
// "NVLINK Error Counts" box. Used by detect_format.
bool looks_like_dcgmi_nvlink(std::string_view text);

// One Gpu per "gpuId N:" with one port per state letter: U active, D inactive (down), X inactive
// (disabled, said in a note), _ not a port of this GPU (left out). An "NvSwitches:" section with a
// physicalId sets nvswitch_present. DCGM's gpuId is its own numbering (usually nvidia-smi's
// index); names, bus ids and link speeds are not in this view. Errors name file and line.
// dcgmi nvlink -e (error counts) goes to parse_dcgmi_nvlink_errors.
core::Result<core::Machine> parse_dcgmi_nvlink(std::string_view text, const std::string& file_name);

// `dcgmi nvlink -e -g N`: one Gpu per "| GPU N |" box, one port per "| Link K |" with its counters
// ("CRC FLIT Error", "CRC Data Error", "Replay Error", "Recovery Error") as error_counters; a
// count that is not a number ("Not Supported") is left out and named in a note. Link states are
// not in this view (active absent). Implemented in dcgmi_nvlink_errors.cpp.
bool looks_like_dcgmi_nvlink_errors(std::string_view text);
core::Result<core::Machine> parse_dcgmi_nvlink_errors(std::string_view text, const std::string& file_name);

}  // namespace gpuvet::parsers
