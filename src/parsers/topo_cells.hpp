// Helpers of the topo -m parser for pastes that are not clean: cells glued together when a wide
// cell filled its tab stop, and telling a `topo -mp` (PCIe-only view) from a `topo -m`.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "parsers/text_lines.hpp"

namespace gpuvet::parsers {

// Splits cells that hold two link cells, or a link cell and an affinity value, printed without
// a separator ("NODENODE", "SYSSYS", "PIX0-23,48-71"). cells[0] (the row label) is kept as is.
// `split` is set when any cell was split. An ambiguous cell ("NV120-23") is left alone.
std::vector<std::string> split_glued_cells(const std::vector<std::string>& cells, bool& split);

// True when the paste is `nvidia-smi topo -mp` (--matrix_pci): the command line says so, or the
// legend runs past its PIX line without the NV# line. A legend cut before NV# is not enough.
bool looks_like_topo_mp(const std::vector<Line>& lines, size_t after);

}  // namespace gpuvet::parsers
