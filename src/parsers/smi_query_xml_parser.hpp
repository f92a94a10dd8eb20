// Parser of pasted `nvidia-smi -q -x` XML (root <nvidia_smi_log>) into a core::Machine,
// through pugixml. Fills the same fields as the -q text parser (see smi_query_fields.hpp).
#pragma once

#include <string>
#include <string_view>

#include "core/error.hpp"
#include "core/machine.hpp"

namespace gpuvet::parsers {

// file_name is used only in Machine::source and error messages. Malformed XML gives a
// bad_input Error with pugixml's description and byte offset.
core::Result<core::Machine> parse_smi_query_xml(std::string_view text, const std::string& file_name);

}  // namespace gpuvet::parsers
