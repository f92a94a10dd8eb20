// Parser of nvbandwidth's plain-text output (github.com/NVIDIA/nvbandwidth, v0.2 to v0.8) into a
// core::BandwidthRun. Pure text -> model; the CLI reads the files. Values stay as printed (GB/s, ns).
#pragma once

#include <string>
#include <string_view>

#include "core/bandwidth.hpp"
#include "core/error.hpp"

namespace gpuvet::parsers {

// The text nvbandwidth prints on stdout, whole or pasted in part.
// - tool_version ("nvbandwidth Version: v0.2"), driver_version ("Driver Version: 525.105.17"),
//   device_names ("Device N: NAME", NAME without the "(dddddddd:bb:dd)" PCI id of v0.5+).
// - One BandwidthMatrix per printed matrix: testcase = nvbandwidth's key (the "SUM KEY" /
//   "&&&& PERF KEY" line when printed, so v0.6+ bidirectional parts are "..._read1",
//   "..._total"; else the "Running KEY." key), title as printed, unit from the title ("GB/s",
//   latency testcases "ns"), labels and cells as printed (N/A -> absent), printed_sum.
// - "Waiving KEY." (v0.2-v0.4) and "Waived: " (v0.5+, which does not name the testcase; key "")
//   give a matrix with status "WAIVED" and no values. "ERROR: ..." / "Error: ..." after
//   "Running KEY." give status = that line.
// - A run that stops (an assertion such as "[CUDA_ERROR_...] ...", or the end of the input)
//   after "Running KEY." keeps the matrices before it, gives KEY a matrix with status
//   "did not finish: ..." and a note. Elided lines ("...") add a note.
// Errors (core::ErrorKind::bad_input) name the file and line: a matrix row with the wrong cell
// count or a non-numeric cell; a "Running KEY." followed by another testcase without a matrix,
// a title or column header without rows, a malformed SUM; no testcase at all. Never throws.
core::Result<core::BandwidthRun> parse_nvbandwidth(std::string_view text, const std::string& file_name);

// True for "nvbandwidth Version" or a "Running <testcase>." line followed by a matrix title.
bool looks_like_nvbandwidth(std::string_view text);

}  // namespace gpuvet::parsers
