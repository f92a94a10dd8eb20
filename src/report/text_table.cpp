// TextTable rendering: natural column widths, narrowed (widest first) to fit the width; a cell
// wider than its column wraps onto more lines of the same row.
#include "report/text_table.hpp"

#include <algorithm>
#include <numeric>

namespace gpuvet::report {

std::string TextTable::render(int indent, std::size_t max_width) const {
  std::vector<size_t> widths(header_.size(), 0);
  auto measure = [&](const std::vector<std::string>& row) {
    for (size_t i = 0; i < row.size() && i < widths.size(); ++i) {
      widths[i] = std::max(widths[i], display_width(row[i]));
    }
  };
  measure(header_);
  for (const auto& row : rows_) measure(row);

  const size_t gaps = widths.empty() ? 0 : 2 * (widths.size() - 1);
  auto total = [&] { return static_cast<size_t>(indent) + gaps + std::accumulate(widths.begin(), widths.end(), size_t{0}); };
  // Many narrow columns (a link matrix with a dozen NICs) cannot narrow: print them in blocks of
  // columns that fit, each block led by the first column again.
  size_t narrowest = static_cast<size_t>(indent) + gaps;  // every column narrowed as far as it may
  for (size_t w : widths) narrowest += std::min(w, kMinColumn);
  if (widths.size() > 2 && narrowest > max_width) {
    std::string out;
    size_t from = 1;
    while (from < widths.size()) {
      size_t used = static_cast<size_t>(indent) + widths[0];
      size_t to = from;
      while (to < widths.size() && (to == from || used + 2 + widths[to] <= max_width)) used += 2 + widths[to++];
      auto pick = [&](const std::vector<std::string>& row) {
        std::vector<std::string> part = {row.empty() ? "" : row[0]};
        for (size_t i = from; i < to; ++i) part.push_back(i < row.size() ? row[i] : "");
        return part;
      };
      TextTable block(pick(header_));
      for (const auto& row : rows_) block.add_row(pick(row));
      out += (from > 1 ? "\n" : "") + block.render(indent, max_width);
      from = to;
    }
    return out;
  }
  while (total() > max_width) {
    const auto widest = std::max_element(widths.begin(), widths.end());
    if (widest == widths.end() || *widest <= kMinColumn) break;
    --*widest;
  }

  std::string out;
  auto emit = [&](const std::vector<std::string>& row) {
    std::vector<std::vector<std::string>> cells(widths.size());
    size_t height = 1;
    for (size_t i = 0; i < widths.size(); ++i) {
      const std::string cell = i < row.size() ? row[i] : "";
      cells[i] = display_width(cell) <= widths[i] ? std::vector<std::string>{cell} : wrap_words(cell, widths[i]);
      height = std::max(height, cells[i].size());
    }
    for (size_t k = 0; k < height; ++k) {
      std::string line(static_cast<size_t>(indent), ' ');
      for (size_t i = 0; i < widths.size(); ++i) {
        const std::string piece = k < cells[i].size() ? cells[i][k] : "";
        line += piece;
        if (i + 1 < widths.size()) line += std::string(widths[i] - std::min(widths[i], display_width(piece)) + 2, ' ');
      }
      while (!line.empty() && line.back() == ' ') line.pop_back();
      out += line + "\n";
    }
  };
  emit(header_);
  for (const auto& row : rows_) emit(row);
  return out;
}

}  // namespace gpuvet::report
