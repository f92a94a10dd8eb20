// Text output of nccl-tests -> core::CollectiveRun. Header lines as printed by nccl-tests
// src/util.cu writeDeviceReport/writeResultFooter (NVIDIA/nccl-tests a0b82b2) and by older
// src/common.cu ("#   Rank  0 Pid ... on HOST device 0 [0x00] NAME", no Group).
#include <cmath>
#include <map>
#include <optional>
#include <set>

#include "parsers/bandwidth_plausibility.hpp"
#include "parsers/nccl_tests_infer.hpp"
#include "parsers/nccl_tests_parser.hpp"
#include "parsers/nccl_tests_table.hpp"
#include "parsers/text_lines.hpp"

namespace gpuvet::parsers {

namespace {

struct RankLine {
  int group = 0;
  std::string host;
  std::string device_name;
};

// What the lines around the table say.
struct Header {
  std::map<int, RankLine> ranks;  // by rank number
  std::optional<int> n_thread, n_gpus;
  std::optional<std::string> nccl_version;      // "NCCL version 2.18.1+cuda12.1" -> "2.18.1"
  std::optional<std::string> nccl_library;      // nccl-tests "nccl-library=22703" -> "2.27.3"
  std::optional<double> printed_avg;
  std::optional<std::string> bad_avg;           // why the printed average cannot be a bandwidth
  std::optional<std::string> binary_op;
  int bad_rank_lines = 0;
};

std::optional<int> to_int(const std::string& s) {
  const auto v = parse_nccl_number(s);
  if (!v || *v < -1e9 || *v > 1e9 || *v != std::floor(*v)) return std::nullopt;
  return static_cast<int>(*v);
}

// "Rank 3 [Group 0] Pid 6902 on HOST device 3 [0000:0c:00] NAME" (cells after the '#').
bool read_rank_line(const std::vector<std::string>& c, std::string_view line, Header& h) {
  size_t i = 2;
  const auto rank = c.size() > 1 ? to_int(c[1]) : std::nullopt;
  int group = 0;
  if (c.size() > i + 1 && c[i] == "Group") {
    const auto g = to_int(c[i + 1]);
    if (!g) return false;
    group = *g;
    i += 2;
  }
  if (!rank || c.size() < i + 7 || c[i] != "Pid" || c[i + 2] != "on" || c[i + 4] != "device") return false;
  const auto close = line.find(']');
  RankLine r{group, c[i + 3], close == std::string_view::npos ? "" : std::string(trim(line.substr(close + 1)))};
  h.ranks[*rank] = std::move(r);
  return true;
}

void read_comment(std::string_view t, Header& h) {
  const auto c = split_ws(t.substr(1));
  if (c.empty()) return;
  auto value_after = [&](const std::string& key) -> std::optional<int> {
    for (size_t i = 0; i + 1 < c.size(); ++i) {
      if (c[i] == key) return to_int(c[i + 1]);
    }
    return std::nullopt;
  };
  if (c[0] == "Rank") {
    if (!read_rank_line(c, t, h)) ++h.bad_rank_lines;
  } else if (c[0] == "nThread") {
    h.n_thread = value_after("nThread");
    h.n_gpus = value_after("nGpus");
  } else if (c[0] == "nccl-tests" && c.size() > 1 && c[1] == "version") {
    for (const auto& cell : c) {
      if (starts_with(cell, "nccl-library=")) {
        if (const auto code = to_int(cell.substr(13)); code && *code > 0) h.nccl_library = nccl_version_from_code(*code);
      }
    }
  } else if (t.find("Avg bus bandwidth") != std::string_view::npos) {
    const auto colon = t.find(':');
    const auto v = colon == std::string_view::npos ? std::vector<std::string>{} : split_ws(t.substr(colon + 1));
    if (!v.empty()) {
      if (const auto bw = parse_nccl_number(v[0])) {
        if (const auto why = implausible_gbps(*bw)) h.bad_avg = "average bus bandwidth '" + v[0] + "' " + *why;
        h.printed_avg = *bw;
      }
    }
  }
}

void read_version(std::string_view t, Header& h) {
  const auto at = t.find("NCCL version ");
  if (at == std::string_view::npos || h.nccl_version) return;
  const auto cells = split_ws(t.substr(at + 13));
  if (cells.empty() || cells[0].empty() || cells[0][0] < '0' || cells[0][0] > '9') return;
  h.nccl_version = cells[0].substr(0, cells[0].find('+'));
}

bool is_nccl_log_line(std::string_view t) {
  return t.find("NCCL INFO") != std::string_view::npos || t.find("NCCL WARN") != std::string_view::npos ||
         t.find("NCCL TRACE") != std::string_view::npos;
}

core::Error line_error(const std::string& file, int line, const std::string& message) {
  return core::input_error(file + ": line " + std::to_string(line) + ": " + message);
}

void fill_ranks(const Header& h, core::CollectiveRun& run) {
  if (h.bad_rank_lines > 0) {
    run.notes.push_back(std::to_string(h.bad_rank_lines) + " \"Rank\" line(s) could not be read and were skipped");
  }
  if (h.ranks.empty()) {
    if (h.n_thread && h.n_gpus) {
      run.notes.push_back("header: nThread " + std::to_string(*h.n_thread) + " nGpus " + std::to_string(*h.n_gpus) +
                          " per process; the log lists no Rank lines, so the process count is unknown");
    }
    run.nodes = core::Reading<int>::absent("the log lists no hosts (no \"Rank N ... on HOST\" lines)");
    return;
  }
  std::set<int> groups;
  std::set<std::string> hosts;
  for (const auto& [rank, r] : h.ranks) {
    groups.insert(r.group);
    hosts.insert(r.host);
    run.device_names.push_back(r.device_name);
  }
  int ranks = static_cast<int>(h.ranks.size());
  if (groups.size() > 1) {
    const int first_group = h.ranks.begin()->second.group;
    ranks = 0;
    for (const auto& [rank, r] : h.ranks) ranks += r.group == first_group ? 1 : 0;
    run.notes.push_back(std::to_string(groups.size()) + " groups (NCCL_TESTS_SPLIT): ranks is the size of group " +
                        std::to_string(first_group) + "; " + std::to_string(h.ranks.size()) + " ranks in all");
  }
  run.ranks = ranks;
  run.nodes = static_cast<int>(hosts.size());
}

}  // namespace

core::Result<core::CollectiveRun> parse_nccl_tests(std::string_view text, const std::string& file_name) {
  Header h;
  NcclColumns columns;
  int header_line = 0;
  std::vector<core::CollectiveRow> rows;
  for (const auto& line : split_lines(text)) {
    bool prefixed = false;
    const auto t = trim(strip_launcher_prefix(line.text, &prefixed));
    if (t.empty()) continue;
    read_version(t, h);
    if (is_nccl_log_line(t)) continue;
    if (!h.binary_op) h.binary_op = find_nccl_binary_op(t);
    if (t[0] == '#') {
      if (auto c = parse_nccl_column_header(t)) {
        if (!rows.empty()) {
          return line_error(file_name, line.number,
                            "a second nccl-tests table starts here (several runs in one file, or processes "
                            "not joined by MPI); give one run per file");
        }
        columns = *c;
        header_line = line.number;
      } else {
        read_comment(t, h);
        if (h.bad_avg) return line_error(file_name, line.number, *h.bad_avg);
      }
      continue;
    }
    const auto cells = split_ws(t);
    if (!looks_like_nccl_row(cells)) continue;
    auto row = parse_nccl_row(cells, columns);
    if (!row) return line_error(file_name, line.number, row.error().message);
    rows.push_back(std::move(row).value());
  }
  if (rows.empty()) {
    if (header_line > 0) return line_error(file_name, header_line, "nccl-tests column header but no result rows");
    return core::input_error(file_name + ": no nccl-tests result table found");
  }

  core::CollectiveRun run;
  run.source = "nccl-tests (" + file_name + ")";
  run.rows = std::move(rows);
  fill_ranks(h, run);
  run.op = choose_nccl_op(h.binary_op, run.rows, columns, run.ranks, NcclPrecision::text, file_name, run.notes);
  if (!run.ranks) {
    run.ranks = infer_nccl_ranks(run.op, run.rows, NcclPrecision::text, run.notes);
  }
  if (h.nccl_version) {
    run.nccl_version = *h.nccl_version;
  } else if (h.nccl_library) {
    run.nccl_version = *h.nccl_library;
  } else {
    run.nccl_version = core::Reading<std::string>::absent("the log does not state the NCCL version");
  }
  run.printed_avg_busbw_gbps =
      h.printed_avg ? core::Reading<double>(*h.printed_avg)
                    : core::Reading<double>::absent("no \"# Avg bus bandwidth\" line in the log");
  if (columns.cpu_time) run.notes.push_back("times are CPU times (-C 1), not GPU times");
  return run;
}

bool looks_like_nccl_tests(std::string_view text) {
  int prefixed_rows = 0;
  for (const auto& line : split_lines(text)) {
    bool prefixed = false;
    const auto t = trim(strip_launcher_prefix(line.text, &prefixed));
    if (t.empty()) continue;
    if (t[0] == '#') {
      if (parse_nccl_column_header(t)) return true;
      const auto c = split_ws(t.substr(1));
      if (c.size() >= 3 && c[0] == "nThread" && c[2] == "nGpus") return true;
      if (t.find("Collective test starting:") != std::string_view::npos) return true;
      continue;
    }
    const auto cells = split_ws(t);
    if (prefixed && looks_like_nccl_row(cells) && parse_nccl_row(cells, NcclColumns{}).ok()) ++prefixed_rows;
  }
  return prefixed_rows > 0;
}

}  // namespace gpuvet::parsers
