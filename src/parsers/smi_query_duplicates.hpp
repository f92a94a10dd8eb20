// One nvidia-smi -q output lists each GPU once: repeated GPU sections (the output pasted twice)
// are folded, and sections that cannot come from one output are refused. Called by the -q text
// and XML parsers right after build_machine.
#pragma once

#include <string>
#include <vector>

#include "core/error.hpp"
#include "core/machine.hpp"
#include "parsers/smi_query_fields.hpp"

namespace gpuvet::parsers::smi_query {

// `built` is build_machine(root, sections, form, file_name) (GPU i from sections[i]). A GPU whose
// bus id (else UUID) was listed before is a repeat: with the same identity and configuration
// (name, UUID, serial, board part number, VBIOS, InfoROM, memory, max PCIe link, ECC, MIG,
// virtualization, power limit, memory health) it is dropped, the machine is rebuilt from the
// first copies and a note names the file and the line of the first repeat; with any of those
// different it is a bad_input Error naming the file, both lines and both values. Readings that
// change from one run to the next (current PCIe link, clocks, idle) are not compared. More
// distinct GPU sections than "Attached GPUs" states is also a bad_input Error (outputs of
// several machines in one file).
core::Result<core::Machine> fold_repeated_gpus(core::Machine built, const Node& root, const std::vector<GpuSection>& sections,
                                               Form form, const std::string& file_name);

}  // namespace gpuvet::parsers::smi_query
