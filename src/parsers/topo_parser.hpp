// Parser of pasted `nvidia-smi topo -m` (topo --matrix) output into a core::Machine: GPU x GPU
// link matrix, NICs with their path to each GPU, CPU and NUMA affinity. Pure text -> model.
#pragma once

#include <string>
#include <string_view>

#include "core/error.hpp"
#include "core/machine.hpp"

namespace gpuvet::parsers {

// Accepts tab- or space-separated matrices, ANSI escapes, CRLF, an indented header line
// (vLLM collect-env), NIC rows/columns with the "NIC Legend", with or without the
// "NUMA Affinity" and "GPU NUMA ID" columns, and any text before and after the matrix.
// Fills gpus (index, numa_node, cpu_affinity; the rest absent "not in nvidia-smi topo -m"),
// links, nics, numa_nodes and attached_gpus; nvswitch_present stays absent.
// file_name is used only in Machine::source and error messages. Errors (bad_input) read
// "<file>: line <n>: <what was expected, what was found>"; no input makes it throw or crash.
core::Result<core::Machine> parse_topo_matrix(std::string_view text, const std::string& file_name);

}  // namespace gpuvet::parsers
