// A plain left-aligned text table with a header row, sized to its contents and fitted to a width:
// when the columns are too wide together, the widest ones narrow and their cells wrap.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "report/text_wrap.hpp"

namespace gpuvet::report {

class TextTable {
 public:
  explicit TextTable(std::vector<std::string> header) : header_(std::move(header)) {}
  void add_row(std::vector<std::string> row) { rows_.push_back(std::move(row)); }
  // `indent` spaces before each line; two spaces between columns; no trailing spaces; no line
  // wider than `max_width` unless the columns cannot narrow further (kMinColumn each).
  [[nodiscard]] std::string render(int indent = 0, std::size_t max_width = kTextWidth) const;

  static constexpr std::size_t kMinColumn = 8;

 private:
  std::vector<std::string> header_;
  std::vector<std::vector<std::string>> rows_;
};

}  // namespace gpuvet::report
