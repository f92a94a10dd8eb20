// Line splitting and cleaning for pasted tool output.
#include "parsers/text_lines.hpp"

namespace gpuvet::parsers {

std::string strip_ansi(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\x1b' && i + 1 < text.size() && text[i + 1] == '[') {
      size_t j = i + 2;
      while (j < text.size() && !(text[j] >= '@' && text[j] <= '~')) ++j;
      i = j;  // skip the final byte too
      continue;
    }
    if (text[i] == '\r') continue;
    out.push_back(text[i]);
  }
  return out;
}

std::vector<Line> split_lines(std::string_view text) {
  std::vector<Line> lines;
  int number = 1;
  size_t start = 0;
  while (start <= text.size()) {
    const size_t end = text.find('\n', start);
    const auto raw = text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
    if (end == std::string_view::npos && raw.empty()) break;
    lines.push_back(Line{number++, strip_ansi(raw)});
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  return lines;
}

std::string_view trim(std::string_view text) {
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return {};
  const auto last = text.find_last_not_of(" \t\r\n");
  return text.substr(first, last - first + 1);
}

std::vector<std::string> split_ws(std::string_view text) {
  std::vector<std::string> out;
  size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
    const size_t start = i;
    while (i < text.size() && text[i] != ' ' && text[i] != '\t') ++i;
    if (i > start) out.emplace_back(text.substr(start, i - start));
  }
  return out;
}

bool starts_with(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

int indent_of(std::string_view text) {
  int n = 0;
  for (char c : text) {
    if (c == ' ') ++n;
    else if (c == '\t') n += 8;
    else break;
  }
  return n;
}

}  // namespace gpuvet::parsers
