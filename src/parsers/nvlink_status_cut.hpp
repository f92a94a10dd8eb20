// Shapes of a `nvidia-smi nvlink -s` line cut short by the end of a paste. Used by
// nvlink_status_parser.cpp on the last line of the input only.
#pragma once

#include <string_view>

namespace gpuvet::parsers {

// The start of a "Link L: ..." or "GPU N: ..." line ("Lin", "Link 3", "GPU 8").
bool looks_cut(std::string_view line);

// The start of a Link line's value: "", "26.5", "26.562 GB/", "<inact". A whole but wrong value
// ("fast") is not one.
bool value_looks_cut(std::string_view value);

}  // namespace gpuvet::parsers
