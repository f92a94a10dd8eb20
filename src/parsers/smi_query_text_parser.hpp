// Parser of pasted `nvidia-smi -q` (or `-a`) text into a core::Machine: one Gpu per
// "GPU 0000..." section, in file order. Pure text -> model; the caller reads the file.
#pragma once

#include <string>
#include <string_view>

#include "core/error.hpp"
#include "core/machine.hpp"

namespace gpuvet::parsers {

// file_name is used only in Machine::source and error messages. Values nvidia-smi prints as
// "N/A", "Not Supported", ... become absent Readings with that text as reason, never zeros.
// Errors (bad_input) name the file, the line and what was expected.
core::Result<core::Machine> parse_smi_query_text(std::string_view text, const std::string& file_name);

}  // namespace gpuvet::parsers
