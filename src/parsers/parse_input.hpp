// One entry point for a pasted file: detects which nvidia-smi view it holds and runs the
// matching parser. Called by the CLI once per input file; merge several with merge_machines.
#pragma once

#include <string>
#include <string_view>

#include "core/error.hpp"
#include "core/machine.hpp"

namespace gpuvet::parsers {

// detect_format() then parse_topo_matrix, parse_smi_query_text, parse_smi_query_xml or
// parse_nvlink_status. An unrecognised text gives a bad_input Error:
// "<file>: not a recognised format (expected nvidia-smi topo -m, nvidia-smi -q, ...)".
core::Result<core::Machine> parse_input(std::string_view text, const std::string& file_name);

}  // namespace gpuvet::parsers
