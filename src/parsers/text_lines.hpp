// Line handling shared by the parsers of pasted tool output: CRLF, ANSI escapes, tabs,
// and text around the part we want. Each Line keeps its 1-based number for error messages.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace gpuvet::parsers {

struct Line {
  int number = 0;     // 1-based line number in the input file
  std::string text;   // without CR/LF and without ANSI escape sequences
};

// Splits text into lines, dropping '\r' and ANSI CSI escape sequences (ESC [ ... letter).
std::vector<Line> split_lines(std::string_view text);
std::string strip_ansi(std::string_view text);
std::string_view trim(std::string_view text);
// Splits on runs of spaces and tabs.
std::vector<std::string> split_ws(std::string_view text);
bool starts_with(std::string_view text, std::string_view prefix);
// Number of leading spaces, counting a tab as 8 (nvidia-smi -q indents with spaces).
int indent_of(std::string_view text);

}  // namespace gpuvet::parsers
