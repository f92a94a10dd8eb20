// Line handling shared by the parsers of benchmark logs (nccl-tests, nvbandwidth,
// p2pBandwidthLatencyTest): Markdown quote prefixes, a paste cut in its last line, and the
// lines a program prints when it fails or crashes. Pure text helpers; no judgement.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "parsers/text_lines.hpp"

namespace gpuvet::parsers {

// "> Running ..." -> "Running ...": a Markdown quote prefix ('>' then a space or the end).
std::string_view strip_quote_prefix(std::string_view line);

// split_lines, then each line without a Markdown quote prefix and without a launcher prefix
// (srun -l "0: ", mpirun --tag-output "[1,0]<stdout>:"). Line numbers are kept.
std::vector<Line> benchmark_lines(std::string_view text);

// True when nothing but blank lines follows lines[i]: the paste may have been cut inside it.
bool is_last_line(const std::vector<Line>& lines, size_t i);

// A line that says the program died: "Segmentation fault", "core dumped", "Aborted",
// "terminate called after throwing", "CUDA error at FILE:LINE", "cudaErrorXxx", "Bus error".
bool is_crash_line(std::string_view t);

// "line N: TEXT", TEXT trimmed and cut to 300 characters: how a failure line is quoted.
std::string quote_line(int number, std::string_view t);

}  // namespace gpuvet::parsers
