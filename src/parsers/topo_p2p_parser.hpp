// Parser of pasted `nvidia-smi topo -p2p r|w|n|a|p` output: the P2P capability of each GPU pair
// (OK, NS, CNS, GNS, TNS, DR, U), not a broken topo -m. Pure text -> model.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/bandwidth.hpp"
#include "core/error.hpp"
#include "core/machine.hpp"
#include "parsers/text_lines.hpp"

namespace gpuvet::parsers {

struct TopoP2p {
  core::Machine machine;     // the GPUs of the header; links absent (the view does not show them)
  core::BandwidthRun access;  // tool "nvidia-smi topo -p2p": p2p_access[i][j] is cell == "OK"; no matrices
};

// True when a GPU0 GPU1 ... header is followed by a row whose off-diagonal cells are all P2P
// status words (OK, NS, CNS, GNS, TNS, DR, U). Used by detect_format before topo -m.
bool looks_like_topo_p2p(const std::vector<Line>& lines);

// Notes name each pair that is not OK with the legend's words ("GPU0-GPU1: GNS (GPU not
// supported)") and the capability asked for when the command line is in the paste ("-p2p rw":
// read and write). Errors (bad_input) name the file and line.
core::Result<TopoP2p> parse_topo_p2p(std::string_view text, const std::string& file_name);

}  // namespace gpuvet::parsers
