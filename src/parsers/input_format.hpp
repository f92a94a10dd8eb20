// Which kind of pasted tool output a file holds, decided from its text alone. The CLI and
// parse_input() call detect_format() before choosing a parser.
#pragma once

#include <string_view>

namespace gpuvet::parsers {

enum class InputFormat { topo_matrix, smi_query_text, smi_query_xml, nvlink_status, nccl_tests_text, nccl_tests_json, nvbandwidth, p2p_test, kernel_log, smi_table, topo_p2p, dcgmi_nvlink, ib_status, unknown };

// The enumerator name ("topo_matrix", ...).
std::string_view to_string(InputFormat format);

// Runs an ordered list of detectors and returns the first that matches; unknown when none does.
// smi_query_xml: "<nvidia_smi_log"; smi_query_text: "==============NVSMI LOG" or an
// "Attached GPUs" line; topo_matrix: a header line starting with GPU0, then GPU1 or
// "CPU Affinity"; nvlink_status: "GPU N: ... (UUID: ...)" followed by a "Link" or "NVML:" line.
InputFormat detect_format(std::string_view text);

}  // namespace gpuvet::parsers
