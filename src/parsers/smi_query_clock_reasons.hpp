// Reads a GPU's clocks event reasons from the -q tree: whether "Idle" is active and which other
// reasons are, by nvidia-smi's names. Used by build_machine for both forms.
#pragma once

#include "core/machine.hpp"
#include "parsers/smi_query_fields.hpp"
#include "parsers/smi_query_tree.hpp"

namespace gpuvet::parsers::smi_query {

// Sets gpu.idle and gpu.clocks_event_reasons (active reasons except Idle, in output order).
// No reasons section: both absent with kNotInOutput; a section with no readable entry: both
// absent with the section's own text (e.g. "N/A").
void read_clocks_event_reasons(const Node& gpu_node, Form form, core::Gpu& gpu);

}  // namespace gpuvet::parsers::smi_query
