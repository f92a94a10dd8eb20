// Which kind of pasted tool output a text holds, and where in a paste each output starts: one table
// of the formats gpuvet reads (input_format.cpp), used by parse_input()/parse_file() to choose a
// parser and name a section, and by split_paste() to cut a paste of several outputs.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

#include "parsers/text_lines.hpp"

namespace gpuvet::parsers {

enum class InputFormat { topo_matrix, smi_query_text, smi_query_xml, nvlink_status, nccl_tests_text, nccl_tests_json, nvbandwidth, p2p_test, kernel_log, smi_table, topo_p2p, dcgmi_nvlink, ib_status, unknown };

// The enumerator name ("topo_matrix", ...).
std::string_view to_string(InputFormat format);

// How a section of this format is named in notes and errors when no collect marker or shell prompt
// named it: "nvidia-smi topo -m", "nccl-tests"; "unrecognised text" for unknown. The nvidia-smi -q -x
// name is the label collect gives that section (kQueryXmlLabel).
std::string_view output_name(InputFormat format);

// Runs the table's detectors in order and returns the first that matches; unknown when none does.
// smi_query_xml: "<nvidia_smi_log"; smi_query_text: "==============NVSMI LOG" or an
// "Attached GPUs" line; topo_matrix: a header line starting with GPU0, then GPU1 or
// "CPU Affinity"; nvlink_status: "GPU N: ... (UUID: ...)" followed by a "Link" or "NVML:" line.
InputFormat detect_format(std::string_view text);

// What line i of a paste starts, for split_paste(): the format whose output begins there (unknown:
// none), found by the same table in the same order. `continues`: a start that, right after output of
// the same format, goes on with it instead of opening a new section, because that format repeats its
// start line (every NCCL INFO line, ibstat CA, nvlink -s GPU, NVRM line; nvidia-smi -q pasted twice;
// "<nvidia_smi_log" under its "<?xml" line, while "<?xml" itself always opens a new output).
struct OutputStart {
  InputFormat format = InputFormat::unknown;
  bool continues = false;
};
OutputStart output_start(const std::vector<Line>& lines, std::size_t i);

}  // namespace gpuvet::parsers
