// Column header, row cells and launcher prefixes of the nccl-tests result table.
// Row layout as printed by nccl-tests src/util.cu (writeBenchmarkLinePreamble/Body, read at
// NVIDIA/nccl-tests a0b82b2): "%12li  %12li  %8s  %6s  %6s" then per group "  %7s  %6s  %6s  %6g"
// (or "    N/A" when validation is off), optionally 4 per-iteration cells and a timestamp.
#include "parsers/nccl_tests_table.hpp"

#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>

#include "parsers/bandwidth_plausibility.hpp"
#include "parsers/text_lines.hpp"

namespace gpuvet::parsers {

namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

bool all_digits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (!is_digit(c)) return false;
  }
  return true;
}

std::optional<std::uint64_t> parse_u64(std::string_view cell) {
  std::uint64_t v = 0;
  const auto* end = cell.data() + cell.size();
  auto [p, ec] = std::from_chars(cell.data(), end, v);
  if (ec != std::errc() || p != end) return std::nullopt;
  return v;
}

std::optional<int> parse_int(std::string_view cell) {
  int v = 0;
  const auto* end = cell.data() + cell.size();
  auto [p, ec] = std::from_chars(cell.data(), end, v);
  if (ec != std::errc() || p != end) return std::nullopt;
  return v;
}

// "2025-01-31 12:00:00" as the last two cells (-S 1).
bool ends_with_timestamp(const std::vector<std::string>& cells) {
  if (cells.size() < 2) return false;
  const std::string& d = cells[cells.size() - 2];
  const std::string& t = cells.back();
  return d.size() == 10 && d[4] == '-' && d[7] == '-' && all_digits(d.substr(0, 4)) &&
         t.size() == 8 && t[2] == ':' && t[5] == ':' && all_digits(t.substr(0, 2));
}

core::Result<core::CollectiveResult> parse_group(const std::vector<std::string>& cells, size_t at,
                                                 const NcclColumns& columns, const char* which) {
  static constexpr std::array<const char*, 3> kNames = {"time", "algbw", "busbw"};
  std::array<double, 3> values{};
  for (size_t i = 0; i < 3; ++i) {
    const auto v = parse_nccl_number(cells[at + i]);
    if (!v) {
      return core::input_error(std::string(which) + " " + kNames[i] + " '" + cells[at + i] +
                               "' is not a number");
    }
    values[i] = *v;
  }
  // algbw is checked against the ceiling only when busbw is not 0: on one rank nothing crosses a
  // link (busbw 0) and an in-place run's algbw is a no-op's (size / a few us).
  for (size_t i = 1; i < 3; ++i) {
    const double ceiling = i == 1 && values[2] == 0 ? std::numeric_limits<double>::infinity() : kMaxPlausibleGbps;
    if (const auto why = implausible_gbps(values[i], ceiling)) {
      return core::input_error(std::string(which) + " " + kNames[i] + " '" + cells[at + i] + "' " + *why);
    }
  }
  if (const auto why = implausible_non_negative(values[0])) {
    return core::input_error(std::string(which) + " time '" + cells[at] + "' " + *why);
  }
  core::CollectiveResult r;
  r.time_us = values[0];
  r.algbw_gbps = values[1];
  r.busbw_gbps = values[2];
  const std::string& wrong = cells[at + 3];
  if (wrong == "N/A") {
    r.wrong = core::Reading<std::int64_t>::absent("not checked (validation off, -c 0): #wrong is N/A");
    return r;
  }
  const auto w = parse_nccl_number(wrong);
  if (!w || *w < 0 || *w > 9e18) {
    return core::input_error(std::string(which) + " #wrong '" + wrong + "' is neither a count nor N/A");
  }
  if (columns.error_column) {
    r.wrong = core::Reading<std::int64_t>::absent(
        "old nccl-tests 'error' column holds a max deviation (" + wrong + "), not a #wrong count");
  } else {
    r.wrong = static_cast<std::int64_t>(std::llround(*w));
  }
  return r;
}

}  // namespace

std::string_view strip_launcher_prefix(std::string_view line, bool* had_prefix) {
  *had_prefix = false;
  size_t i = 0;
  while (i < line.size() && line[i] == ' ') ++i;
  if (i < line.size() && line[i] == '[') {  // mpirun --tag-output: [job,rank]<stdout>:
    const auto close = line.find("]<std", i);
    const auto colon = close == std::string_view::npos ? close : line.find(">:", close);
    if (colon != std::string_view::npos && colon < i + 40) {
      *had_prefix = true;
      return line.substr(colon + 2);
    }
    return line;
  }
  size_t j = i;
  while (j < line.size() && is_digit(line[j]) && j - i < 7) ++j;
  if (j == i || j >= line.size() || line[j] != ':') return line;
  ++j;
  if (j < line.size() && line[j] == ' ') ++j;
  *had_prefix = true;
  return line.substr(j);
}

std::optional<NcclColumns> parse_nccl_column_header(std::string_view line) {
  const auto t = trim(line);
  if (t.empty() || t[0] != '#') return std::nullopt;
  const auto cells = split_ws(t.substr(1));
  if (cells.size() < 3 || cells[0] != "size" || cells[1] != "count" || cells[2] != "type") {
    return std::nullopt;
  }
  NcclColumns c;
  c.known = true;
  for (const auto& cell : cells) {
    if (cell == "redop") c.has_redop = true;
    if (cell == "root") c.has_root = true;
    if (cell == "i_min") c.per_iter = true;
    if (cell == "error") c.error_column = true;
    if (cell == "cputime") c.cpu_time = true;
  }
  return c;
}

bool looks_like_nccl_row(const std::vector<std::string>& cells) {
  return cells.size() >= 2 && all_digits(cells[0]) && all_digits(cells[1]);
}

std::optional<double> parse_nccl_number(std::string_view cell) {
  double v = 0;
  const auto* end = cell.data() + cell.size();
  auto [p, ec] = std::from_chars(cell.data(), end, v);
  if (ec != std::errc() || p != end || !std::isfinite(v)) return std::nullopt;
  return v;
}

std::string nccl_version_from_code(int code) {
  const int major = code >= 10000 ? code / 10000 : code / 1000;
  const int minor = code >= 10000 ? code % 10000 / 100 : code % 1000 / 100;
  return std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(code % 100);
}

std::optional<int> nccl_type_size_bytes(std::string_view type) {
  if (type == "int8" || type == "uint8" || type == "char" || type == "f8e4m3" || type == "f8e5m2") return 1;
  if (type == "half" || type == "bfloat16") return 2;
  if (type == "int32" || type == "uint32" || type == "int" || type == "float") return 4;
  if (type == "int64" || type == "uint64" || type == "double") return 8;
  return std::nullopt;
}

bool is_nccl_reduction(std::string_view redop) {
  return redop == "sum" || redop == "prod" || redop == "max" || redop == "min" || redop == "avg" ||
         redop == "mulsum";
}

core::Result<core::CollectiveRow> parse_nccl_row(const std::vector<std::string>& all_cells,
                                                 const NcclColumns& columns) {
  std::vector<std::string> cells = all_cells;
  if (ends_with_timestamp(cells)) cells.resize(cells.size() - 2);
  const size_t n = cells.size();
  const bool per_iter = columns.known ? columns.per_iter : n >= 19;
  const size_t group = per_iter ? 8 : 4;
  const size_t expected_lead = columns.known ? 3 + (columns.has_redop ? 1 : 0) + (columns.has_root ? 1 : 0) : 0;
  const size_t min_lead = columns.known ? expected_lead - (columns.has_redop ? 1 : 0) : 3;
  const size_t max_lead = columns.known ? expected_lead : 5;
  // One cell short is a blank redop only if the cell after type is a number (root or time).
  const bool short_by_one = columns.known && n == 2 * group + min_lead && min_lead < max_lead;
  const bool bad_count = n < 2 * group + min_lead || n > 2 * group + max_lead ||
                         (short_by_one && !parse_nccl_number(cells[3]));
  if (bad_count) {
    return core::input_error("expected " + std::to_string(2 * group + max_lead) + " cells (" +
                             std::to_string(2 * group) + " after size/count/type" +
                             std::string(columns.known && columns.has_redop ? "/redop" : "") +
                             std::string(columns.known && columns.has_root ? "/root" : "") + "), found " +
                             std::to_string(all_cells.size()));
  }
  const size_t lead = n - 2 * group;
  core::CollectiveRow row;
  const auto size = parse_u64(cells[0]);
  const auto count = parse_u64(cells[1]);
  if (!size) return core::input_error("size '" + cells[0] + "' is not a byte count");
  if (!count) return core::input_error("count '" + cells[1] + "' is not an element count");
  if (parse_nccl_number(cells[2])) return core::input_error("type '" + cells[2] + "' is a number, not a type name");
  row.size_bytes = *size;
  row.count = *count;
  row.type = cells[2];

  // Cells between type and the first time: redop and/or root; a blank redop prints nothing.
  std::vector<std::string> extra(cells.begin() + 3, cells.begin() + static_cast<long>(lead));
  bool want_redop = columns.known ? columns.has_redop : extra.size() == 2;
  bool want_root = columns.known ? columns.has_root : extra.size() == 2;
  if (!columns.known && extra.size() == 1) {
    want_root = parse_int(extra[0]).has_value();
    want_redop = !want_root;
  }
  if (want_redop && want_root && extra.size() == 1) want_redop = false;  // blank redop, root printed
  if (want_redop && !want_root && extra.empty()) want_redop = false;     // blank redop (old alltoall)
  size_t at = 0;
  if (want_redop) {
    if (parse_nccl_number(extra[at])) return core::input_error("redop '" + extra[at] + "' is a number");
    row.redop = extra[at++];
  } else {
    row.redop = core::Reading<std::string>::absent(columns.known && columns.has_redop ? "redop cell is blank"
                                                                                       : "no redop column");
  }
  if (want_root) {
    const auto root = parse_int(extra[at]);
    if (!root) return core::input_error("root '" + extra[at] + "' is not an integer");
    row.root = *root;
  } else {
    row.root = core::Reading<int>::absent("no root column");
  }

  auto oop = parse_group(cells, lead, columns, "out-of-place");
  if (!oop) return oop.error();
  auto ip = parse_group(cells, lead + group, columns, "in-place");
  if (!ip) return ip.error();
  row.out_of_place = std::move(oop).value();
  row.in_place = std::move(ip).value();
  return row;
}

}  // namespace gpuvet::parsers
