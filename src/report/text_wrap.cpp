// Word wrapping for terminal text (display width, hanging indents).
#include "report/text_wrap.hpp"

#include <algorithm>

namespace gpuvet::report {

namespace {

// Byte length of the ANSI CSI sequence starting at `i` (ESC [ parameters final-letter), or 0.
std::size_t escape_length(std::string_view s, std::size_t i) {
  if (s[i] != '\x1b' || i + 1 >= s.size() || s[i + 1] != '[') return 0;
  std::size_t j = i + 2;
  while (j < s.size() && !((s[j] >= '@' && s[j] <= '~'))) ++j;
  return j < s.size() ? j - i + 1 : s.size() - i;
}

// Byte offset where `columns` display columns of `s` end (the whole string if it is narrower).
std::size_t byte_offset_at(std::string_view s, std::size_t columns) {
  std::size_t seen = 0;
  for (std::size_t i = 0; i < s.size();) {
    if (const auto esc = escape_length(s, i); esc > 0) {
      i += esc;
      continue;
    }
    if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80) {
      if (seen == columns) return i;
      ++seen;
    }
    ++i;
  }
  return s.size();
}

// Column where the second column of an aligned line starts: after the first token that is
// followed by two or more spaces. 0 when there is none.
std::size_t second_column(std::string_view line) {
  std::size_t i = line.find_first_not_of(' ');
  if (i == std::string_view::npos) return 0;
  const auto gap = line.find("  ", i);
  if (gap == std::string_view::npos) return 0;
  const auto next = line.find_first_not_of(' ', gap);
  return next == std::string_view::npos ? 0 : display_width(line.substr(0, next));
}

}  // namespace

std::size_t display_width(std::string_view text) {
  std::size_t width = 0;
  for (std::size_t i = 0; i < text.size();) {
    if (const auto esc = escape_length(text, i); esc > 0) {
      i += esc;
      continue;
    }
    if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) ++width;
    ++i;
  }
  return width;
}

std::vector<std::string> wrap_words(std::string_view text, std::size_t width) {
  width = std::max<std::size_t>(width, 1);
  std::vector<std::string> lines;
  std::string current;
  std::size_t current_width = 0;
  auto flush = [&] {
    lines.push_back(current);
    current.clear();
    current_width = 0;
  };
  std::size_t i = 0;
  while (i < text.size()) {
    if (text[i] == ' ') {
      ++i;
      continue;
    }
    const std::size_t end = std::min(text.find(' ', i), text.size());
    std::string_view word = text.substr(i, end - i);
    i = end;
    std::size_t w = display_width(word);
    if (current_width > 0 && current_width + 1 + w <= width) {
      current += ' ';
      current += word;
      current_width += 1 + w;
      continue;
    }
    if (current_width > 0) flush();
    while (w > width) {  // a word wider than the line: cut it
      const auto cut = byte_offset_at(word, width);
      lines.emplace_back(word.substr(0, cut));
      word = word.substr(cut);
      w = display_width(word);
    }
    current = std::string(word);
    current_width = w;
  }
  if (current_width > 0 || lines.empty()) flush();
  return lines;
}

std::string wrap_line(std::string_view line, std::size_t hanging, std::size_t width) {
  if (display_width(line) <= width) return std::string(line) + "\n";
  hanging = std::min(hanging, width / 2);
  const std::size_t lead = std::min(line.find_first_not_of(' '), line.size());
  // The first line keeps its own spacing (aligned columns) up to the last space that fits.
  const std::size_t cut = byte_offset_at(line, width);
  std::size_t pos = line.rfind(' ', cut);
  if (pos == std::string_view::npos || pos <= lead) pos = cut;
  std::string_view first = line.substr(0, pos);
  while (!first.empty() && first.back() == ' ') first.remove_suffix(1);
  std::string_view rest = line.substr(pos);
  while (!rest.empty() && rest.front() == ' ') rest.remove_prefix(1);
  std::string out = std::string(first) + "\n";
  if (rest.empty()) return out;
  for (const auto& piece : wrap_words(rest, width - hanging)) out += std::string(hanging, ' ') + piece + "\n";
  return out;
}

std::string fit_lines(std::string_view text, std::size_t width) {
  std::string out;
  std::size_t start = 0;
  while (start < text.size()) {
    const auto nl = text.find('\n', start);
    const bool has_newline = nl != std::string_view::npos;
    const std::string_view line = text.substr(start, (has_newline ? nl : text.size()) - start);
    start = has_newline ? nl + 1 : text.size();
    if (display_width(line) <= width) {
      out += line;
      if (has_newline) out += '\n';
      continue;
    }
    std::size_t hanging = second_column(line);
    if (hanging == 0 || hanging > width / 2) hanging = std::min(line.find_first_not_of(' '), line.size()) + 2;
    std::string wrapped = wrap_line(line, hanging, width);
    if (!has_newline) wrapped.pop_back();
    out += wrapped;
  }
  return out;
}

}  // namespace gpuvet::report
