// A plain left-aligned text table with a header row, sized to its contents.
#pragma once

#include <string>
#include <vector>

namespace gpuvet::report {

class TextTable {
 public:
  explicit TextTable(std::vector<std::string> header) : header_(std::move(header)) {}
  void add_row(std::vector<std::string> row) { rows_.push_back(std::move(row)); }
  // `indent` spaces before each line; two spaces between columns; no trailing spaces.
  [[nodiscard]] std::string render(int indent = 0) const;

 private:
  std::vector<std::string> header_;
  std::vector<std::vector<std::string>> rows_;
};

}  // namespace gpuvet::report
