// Private helpers shared by the nvbandwidth and p2pBandwidthLatencyTest parsers: reading one
// printed matrix row (label, then numbers or N/A) into core::Reading cells with line-numbered errors.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/bandwidth.hpp"
#include "core/error.hpp"
#include "parsers/text_lines.hpp"

namespace gpuvet::parsers {

// A finite decimal number as the tools print it ("172.16", "0.00", "-1"); false on anything
// else ("inf", "1e3x", "", "N/A").
bool parse_decimal(std::string_view text, double& out);

// The unit in the last parentheses of a matrix title: "... bandwidth (GB/s)" -> "GB/s". Empty
// when the title has none.
std::string unit_of_title(std::string_view title);

struct MatrixRowSpec {
  std::string tool;              // "nvbandwidth" or "p2pBandwidthLatencyTest", for messages
  std::string matrix;            // the testcase key or title, for messages
  size_t columns = 0;            // cells expected after the row label
  bool allow_na = false;         // nvbandwidth prints N/A for pairs it did not measure
  std::string na_reason;         // absence reason for an N/A cell
  std::string unit;              // from the title: "GB/s" cells must be plausible bandwidths
};

// Appends the row on `line` (label + spec.columns cells) to `m`. bad_input Error naming the file
// and line when the cell count is wrong, a cell is not a number (or N/A where allowed), or a
// value is implausible: negative, or in GB/s above kMaxPlausibleGbps (bandwidth_plausibility.hpp).
core::Result<bool> append_matrix_row(const Line& line, const MatrixRowSpec& spec, core::BandwidthMatrix& m,
                                     const std::string& file_name);

// The input's last line, with no line end after it, may stop inside its last number ("37" of
// "375.61"): a row of the full cell count whose last cell has no decimal digit is appended with
// that cell absent ("the paste ends inside this value"). False (m unchanged) when the last cell
// has a decimal digit ("375.6": its integer part is whole, kept as printed), the row is not of
// the full count, or it does not parse: the caller treats it as any other row.
bool append_row_cut_in_last_cell(const Line& line, const MatrixRowSpec& spec, core::BandwidthMatrix& m,
                                 const std::string& file_name);

}  // namespace gpuvet::parsers
