// Matrix rows of nvbandwidth / p2pBandwidthLatencyTest output: label, then one cell per column.
#include "parsers/nvbandwidth_matrix_text.hpp"

#include <charconv>
#include <cmath>
#include <fmt/format.h>

#include "parsers/bandwidth_plausibility.hpp"
#include "parsers/topo_common.hpp"

namespace gpuvet::parsers {

bool parse_decimal(std::string_view text, double& out) {
  if (text.empty()) return false;
  for (const char c : text) {
    if (!(c == '.' || c == '-' || (c >= '0' && c <= '9'))) return false;
  }
  double v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(v)) return false;
  out = v;
  return true;
}

std::string unit_of_title(std::string_view title) {
  const auto t = trim(title);
  if (t.empty() || t.back() != ')') return {};
  const auto open = t.rfind('(');
  if (open == std::string_view::npos) return {};
  return std::string(t.substr(open + 1, t.size() - open - 2));
}

core::Result<bool> append_matrix_row(const Line& line, const MatrixRowSpec& spec, core::BandwidthMatrix& m,
                                     const std::string& file_name) {
  const auto cells = split_ws(line.text);
  if (cells.empty()) return line_error(file_name, line.number, fmt::format("expected a row of {}, found an empty line", spec.matrix));
  const auto& label = cells[0];
  if (cells.size() - 1 != spec.columns) {
    return line_error(file_name, line.number,
                      fmt::format("row {} of {} has {} cells, expected {} (one per column of the header)", quoted(label),
                                  spec.matrix, cells.size() - 1, spec.columns));
  }
  std::vector<core::Reading<double>> row;
  row.reserve(spec.columns);
  for (size_t j = 1; j < cells.size(); ++j) {
    double v = 0;
    if (spec.allow_na && cells[j] == "N/A") {
      row.push_back(core::Reading<double>::absent(spec.na_reason));
    } else if (parse_decimal(cells[j], v)) {
      const auto why = spec.unit == "GB/s" ? implausible_gbps(v) : implausible_non_negative(v);
      if (why) {
        const auto& col = j - 1 < m.column_labels.size() ? m.column_labels[j - 1] : std::to_string(j - 1);
        return line_error(file_name, line.number,
                          fmt::format("cell {} in row {}, column {} of {} {}", quoted(cells[j]), quoted(label), quoted(col),
                                      spec.matrix, *why));
      }
      row.emplace_back(v);
    } else {
      const auto& col = j - 1 < m.column_labels.size() ? m.column_labels[j - 1] : std::to_string(j - 1);
      return line_error(file_name, line.number,
                        fmt::format("cell {} in row {}, column {} of {} is not a number{}", quoted(cells[j]), quoted(label),
                                    quoted(col), spec.matrix, spec.allow_na ? " or N/A" : ""));
    }
  }
  m.row_labels.push_back(label);
  m.values.push_back(std::move(row));
  return true;
}

bool append_row_cut_in_last_cell(const Line& line, const MatrixRowSpec& spec, core::BandwidthMatrix& m,
                                 const std::string& file_name) {
  const auto cells = split_ws(line.text);
  if (cells.size() != spec.columns + 1) return false;
  // "375.6" of "375.61": the integer part is whole, the value off by less than its last digit: kept.
  const auto dot = cells.back().find('.');
  if (dot != std::string::npos && dot + 1 < cells.back().size()) return false;
  const auto last = line.text.rfind(cells.back());
  if (last == std::string::npos) return false;
  Line whole = line;
  whole.text = line.text.substr(0, last) + "1";  // a stand-in the next line makes absent
  const auto rows = m.values.size();
  if (!append_matrix_row(whole, spec, m, file_name) || m.values.size() != rows + 1 || m.values.back().empty()) return false;
  m.values.back().back() = core::Reading<double>::absent("the paste ends inside this value");
  return true;
}

}  // namespace gpuvet::parsers
