// Merges the pictures of one machine taken from several files (topo -m, -q, -q -x,
// nvlink -s) into one core::Machine. Called by parse_input's callers (the CLI) after parsing.
#pragma once

#include <string>
#include <vector>

#include "core/error.hpp"
#include "core/machine.hpp"

namespace gpuvet::parsers {

// GPUs are matched by index (nvidia-smi numbers GPUs in PCI bus order in every view), after the
// GPUs of a -q part that shows only some of them are placed by bus id, UUID or serial
// (gpu_placement.hpp: -q prints no GPU numbers, so a -q -i N section is never merged by position). Each
// field comes from the first part that knows it (in the order given); NVLink ports merge by
// port number. When two parts know a GPU's name, UUID, serial or PCI bus id and disagree, or
// state different attached GPU counts, or one shows a GPU index the other's count excludes,
// the result is a bad_input Error naming the GPU and both files. Parts with fewer GPUs
// (elided input, MIG-trimmed XML) are not a conflict. Sources join with " + ", notes
// concatenate; other disagreements (driver version, host name) add a note. Two link matrices of
// the same GPUs that differ on a pair are a bad_input Error naming the pair and both files.
core::Result<core::Machine> merge_machines(const std::vector<core::Machine>& parts);

// "topo.txt" out of a source "nvidia-smi topo -m (topo.txt)"; the whole source when it has no "(...)".
std::string source_file(const std::string& source);

}  // namespace gpuvet::parsers
