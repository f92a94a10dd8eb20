// The typed finding codes (core/finding_codes.hpp) under the name the rules use: code::xid_event.
// The ids live in core/ so that report/ and plan/ can name a code without depending on analysis/.
#pragma once

#include "core/finding_codes.hpp"

namespace gpuvet::analysis {
namespace code = core::code;
}  // namespace gpuvet::analysis
