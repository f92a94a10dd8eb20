// Text output of nccl-tests -> core::CollectiveRun(s). Header lines as printed by nccl-tests
// src/util.cu writeDeviceReport/writeResultFooter (NVIDIA/nccl-tests a0b82b2) and by older
// src/common.cu ("#   Rank  0 Pid ... on HOST device 0 [0x00] NAME", no Group; 2018 without Pid).
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <optional>
#include <set>

#include <fmt/format.h>

#include "parsers/bandwidth_plausibility.hpp"
#include "parsers/benchmark_log_lines.hpp"
#include "parsers/nccl_tests_infer.hpp"
#include "parsers/nccl_debug_info.hpp"
#include "parsers/nccl_tests_log.hpp"
#include "parsers/nccl_tests_parser.hpp"
#include "parsers/nccl_tests_table.hpp"
#include "parsers/text_lines.hpp"

namespace gpuvet::parsers {

namespace {

constexpr size_t kMaxQuoted = 5;  // failure and WARN lines quoted per run

// What the lines of one run say besides its rows.
struct Part {
  std::map<int, core::RankDevice> ranks;  // by rank number
  std::map<int, int> groups;              // rank -> NCCL_TESTS_SPLIT group
  std::optional<int> n_thread, n_gpus;
  std::optional<double> printed_avg;
  std::vector<core::CollectiveRow> rows;
  int cut_rank_lines = 0;
};

// What the whole file says (shared by its runs) and the parts it holds.
struct Log {
  std::vector<Part> parts;
  NcclColumns columns;
  int header_line = 0;
  bool units_line = false;                     // "#  (B)  (elements)": a table starts here
  std::optional<std::string> nccl_version;     // "NCCL version 2.18.1+cuda12.1" -> "2.18.1"
  std::optional<std::string> nccl_library;     // nccl-tests "nccl-library=22703" -> "2.27.3"
  std::optional<std::string> binary_op;
  std::vector<std::string> failures, warns;
  size_t more_failures = 0, more_warns = 0;
  int bad_rank_lines = 0;
  bool cpu_time = false;
  std::string cut_row;  // note when the paste ends inside a row
  // Separate runs: a header after rows starts a new segment; inside a segment the k-th
  // appearance of a rank line, a row size or an average belongs to run seg_base + k
  // (processes not joined by MPI print the same lines once each, interleaved).
  size_t seg_base = 0;
  bool seg_has_rows = false;
  std::map<int, size_t> rank_seen;
  std::map<std::uint64_t, size_t> size_seen;
  size_t avg_seen = 0;
  size_t header_seen = 0;
  NcclDebugFacts debug;  // from the NCCL INFO lines, for every run of the file
  bool only_debug = false;  // NCCL INFO lines and nothing of nccl-tests (an excerpt of NCCL_DEBUG output)

  Part& part(size_t k) {
    while (parts.size() <= seg_base + k) parts.emplace_back();
    return parts[seg_base + k];
  }
  void new_segment_if_rows() {
    if (!seg_has_rows) return;
    seg_base = parts.size();
    seg_has_rows = false;
    rank_seen.clear();
    size_seen.clear();
    avg_seen = 0;
    header_seen = 0;
  }
};

std::optional<int> to_int(const std::string& s) {
  const auto v = parse_nccl_number(s);
  if (!v || *v < -1e9 || *v > 1e9 || *v != std::floor(*v)) return std::nullopt;
  return static_cast<int>(*v);
}

core::Error line_error(const std::string& file, int line, const std::string& message) {
  return core::input_error(file + ": line " + std::to_string(line) + ": " + message);
}

void quote(std::vector<std::string>& list, size_t& more, const Line& line, std::string_view t) {
  if (list.size() < kMaxQuoted) {
    list.push_back(quote_line(line.number, t));
  } else {
    ++more;
  }
}

// True when `value` is a strict prefix of that field on a rank line read before.
bool prefix_of_another(const Log& log, const std::string& value, std::string core::RankDevice::*field) {
  for (const auto& part : log.parts) {
    for (const auto& entry : part.ranks) {
      const std::string& other = entry.second.*field;
      if (other.size() > value.size() && other.compare(0, value.size(), value) == 0) return true;
    }
  }
  return false;
}

// The input's last line may stop inside its last token: a Rank line's name (or host, when the
// line ends there) that ends the input without a newline, or that is a strict prefix of another
// rank's, is cut: dropped, never a new model or host.
void drop_cut_last_token(std::string_view after_hash, const Log& log, bool input_ends_open, core::RankDevice& r,
                         bool& cut) {
  const auto tokens = split_ws(after_hash);
  std::string core::RankDevice::*field = !r.name.empty() ? &core::RankDevice::name : &core::RankDevice::host;
  if (field == &core::RankDevice::host && (r.host.empty() || tokens.back() != r.host)) return;
  std::string& value = r.*field;
  if (input_ends_open || prefix_of_another(log, value, field)) {
    value.clear();
    cut = true;
  }
}

void read_rank(std::string_view after_hash, const Line& line, bool last, bool input_ends_open, Log& log) {
  bool cut = false;
  auto r = read_nccl_rank_line(after_hash, &cut);
  if (!r || (cut && !last)) {
    ++log.bad_rank_lines;
    return;
  }
  if (last) drop_cut_last_token(after_hash, log, input_ends_open, *r, cut);
  const auto c = split_ws(after_hash);
  int group = 0;
  if (c.size() > 3 && c[2] == "Group") group = to_int(c[3]).value_or(0);
  Part& p = log.part(log.rank_seen[r->rank]++);
  if (cut) ++p.cut_rank_lines;
  p.groups[r->rank] = group;
  p.ranks[r->rank] = std::move(*r);
  (void)line;
}

// Returns an error message when the printed average is not a bandwidth.
std::optional<std::string> read_comment(std::string_view t, const Line& line, bool last, bool input_ends_open, Log& log) {
  const auto body = t[0] == '#' ? t.substr(1) : t;
  const auto c = split_ws(body);
  if (c.empty()) return std::nullopt;
  auto value_after = [&](const std::string& key) -> std::optional<int> {
    for (size_t i = 0; i + 1 < c.size(); ++i) {
      if (c[i] == key) return to_int(c[i + 1]);
    }
    return std::nullopt;
  };
  if (c[0] == "Rank") {
    read_rank(body, line, last, input_ends_open, log);
  } else if (c[0] == "nThread") {
    log.new_segment_if_rows();
    Part& p = log.part(log.header_seen++);
    p.n_thread = value_after("nThread");
    p.n_gpus = value_after("nGpus");
  } else if (c[0] == "(B)" && c.size() > 1 && c[1] == "(elements)") {
    log.units_line = true;
  } else if (c[0] == "nccl-tests" && c.size() > 1 && c[1] == "version") {
    for (const auto& cell : c) {
      if (starts_with(cell, "nccl-library=")) {
        if (const auto code = to_int(cell.substr(13)); code && *code > 0) log.nccl_library = nccl_version_from_code(*code);
      }
    }
  } else if (c.size() > 3 && c[0] == "bytes" && c[1] == "N" && c[2] == "type") {
    // nccl-tests 1.x (2018): "bytes N type op time algbw busbw res": read rows by their cell count.
    log.new_segment_if_rows();
    log.columns = NcclColumns{};
    log.header_line = line.number;
  } else if (const auto oob = nccl_out_of_bounds(t)) {
    quote(log.failures, log.more_failures, line, t);
  } else if (t.find("Avg bus bandwidth") != std::string_view::npos) {
    const auto colon = t.find(':');
    const auto v = colon == std::string_view::npos ? std::vector<std::string>{} : split_ws(t.substr(colon + 1));
    if (!v.empty()) {
      if (const auto bw = parse_nccl_number(v[0])) {
        if (const auto why = implausible_gbps(*bw)) return "average bus bandwidth '" + v[0] + "' " + *why;
        log.part(log.avg_seen++).printed_avg = *bw;
      }
    }
  }
  return std::nullopt;
}

void read_version(std::string_view t, Log& log) {
  const auto at = t.find("NCCL version ");
  if (at == std::string_view::npos || log.nccl_version) return;
  const auto cells = split_ws(t.substr(at + 13));
  if (cells.empty() || cells[0].empty() || cells[0][0] < '0' || cells[0][0] > '9') return;
  log.nccl_version = cells[0].substr(0, cells[0].find('+'));
}

void fill_ranks(const Part& p, core::CollectiveRun& run) {
  if (p.ranks.empty()) {
    if (p.n_thread && p.n_gpus) {
      run.notes.push_back("header: nThread " + std::to_string(*p.n_thread) + " nGpus " + std::to_string(*p.n_gpus) +
                          " per process; the log lists no Rank lines, so the process count is unknown");
    }
    run.nodes = core::Reading<int>::absent("the log lists no hosts (no \"Rank N ... on HOST\" lines)");
    return;
  }
  std::set<int> groups;
  std::set<std::string> hosts;
  for (const auto& [rank, r] : p.ranks) {
    groups.insert(p.groups.at(rank));
    if (!r.host.empty()) hosts.insert(r.host);
    run.device_names.push_back(r.name);
    run.rank_devices.push_back(r);
  }
  if (p.cut_rank_lines > 0) {
    run.notes.push_back("the last Rank line is cut by the paste: what it lost (its GPU name, or its host) is unknown: "
                        "its Rank line is cut");
  }
  const int first = p.ranks.begin()->first;
  const int last = p.ranks.rbegin()->first;
  const bool contiguous = first == 0 && last + 1 == static_cast<int>(p.ranks.size());
  if (!contiguous) {
    const auto why = fmt::format("the paste shows {} Rank line(s), ranks {} to {}: at least {} ranks, the total is not shown",
                                 p.ranks.size(), first, last, last + 1);
    run.notes.push_back(why);
    run.ranks = core::Reading<int>::absent(why);
    run.nodes = core::Reading<int>::absent(fmt::format("at least {} host(s); the paste does not show every Rank line", hosts.size()));
    return;
  }
  int ranks = static_cast<int>(p.ranks.size());
  if (groups.size() > 1) {
    const int first_group = p.groups.begin()->second;
    ranks = 0;
    for (const auto& [rank, g] : p.groups) ranks += g == first_group ? 1 : 0;
    run.notes.push_back(std::to_string(groups.size()) + " groups (NCCL_TESTS_SPLIT): ranks is the size of group " +
                        std::to_string(first_group) + "; " + std::to_string(p.ranks.size()) + " ranks in all");
  }
  run.ranks = ranks;
  if (hosts.empty()) {
    run.nodes = core::Reading<int>::absent("the Rank lines name no hosts");
  } else {
    run.nodes = static_cast<int>(hosts.size());
  }
}

core::CollectiveRun build_run(const Log& log, Part& p, const std::string& file_name) {
  core::CollectiveRun run;
  run.source = "nccl-tests (" + file_name + ")";
  run.rows = std::move(p.rows);
  fill_ranks(p, run);
  apply_nccl_debug_facts(log.debug, run);
  if (run.rows.empty()) {
    run.op = log.binary_op.value_or("unknown");
  } else {
    run.op = choose_nccl_op(log.binary_op, run.rows, log.columns, run.ranks, NcclPrecision::text, file_name, run.notes);
    if (!run.ranks && run.rank_devices.empty()) run.ranks = infer_nccl_ranks(run.op, run.rows, NcclPrecision::text, run.notes);
  }
  if (!run.ranks && run.ranks.reason() == "not reported") run.ranks = core::Reading<int>::absent("the log lists no ranks");
  if (log.nccl_version) {
    run.nccl_version = *log.nccl_version;
  } else if (log.nccl_library) {
    run.nccl_version = *log.nccl_library;
  } else {
    run.nccl_version = core::Reading<std::string>::absent("the log does not state the NCCL version");
  }
  run.printed_avg_busbw_gbps = p.printed_avg ? core::Reading<double>(*p.printed_avg)
                                             : core::Reading<double>::absent("no \"# Avg bus bandwidth\" line in the log");
  if (log.cpu_time) run.notes.push_back("times are CPU times (-C 1), not GPU times");
  if (log.bad_rank_lines > 0) {
    run.notes.push_back(std::to_string(log.bad_rank_lines) + " \"Rank\" line(s) could not be read and were skipped");
  }
  run.failures = log.failures;
  if (log.more_failures > 0) run.failures.push_back(fmt::format("and {} more failure line(s)", log.more_failures));
  // NCCL WARN lines are fatal when no result follows; after a finished table they are notes.
  const bool finished = !run.rows.empty() && p.printed_avg.has_value();
  if (!log.warns.empty()) {
    auto& into = finished ? run.notes : run.failures;
    for (const auto& w : log.warns) into.push_back(finished ? "NCCL warned: " + w : w);
    if (log.more_warns > 0) into.push_back(fmt::format("and {} more NCCL WARN line(s)", log.more_warns));
  }
  if (!log.cut_row.empty()) run.notes.push_back(log.cut_row);
  if (run.rows.empty()) {
    run.notes.push_back(log.only_debug ? "only NCCL INFO lines, no nccl-tests table: no result to judge"
                        : log.header_line > 0 || log.units_line ? "the table has no result rows: no collective completed"
                                                                : "no result table: no collective completed");
  }
  return run;
}

// The same rows with the same times: one output pasted twice, not a second run.
bool same_rows(const core::CollectiveRun& a, const core::CollectiveRun& b) {
  if (a.rows.empty() || a.rows.size() != b.rows.size()) return false;
  for (size_t i = 0; i < a.rows.size(); ++i) {
    const auto& x = a.rows[i];
    const auto& y = b.rows[i];
    if (x.size_bytes != y.size_bytes || x.out_of_place.time_us.value_or(-1) != y.out_of_place.time_us.value_or(-1) ||
        x.in_place.time_us.value_or(-1) != y.in_place.time_us.value_or(-1)) {
      return false;
    }
  }
  return true;
}

// Several runs of the same test over the same sizes in one file: processes that each ran alone.
void mark_separate_runs(std::vector<core::CollectiveRun>& runs, const std::string& file_name) {
  if (runs.size() < 2) return;
  bool alike = true;
  for (const auto& r : runs) {
    alike = alike && r.op == runs.front().op && r.rows.size() == runs.front().rows.size() && !r.rows.empty();
    for (size_t i = 0; alike && i < r.rows.size(); ++i) alike = r.rows[i].size_bytes == runs.front().rows[i].size_bytes;
  }
  const int n = static_cast<int>(runs.size());
  for (int k = 0; k < n; ++k) {
    auto& r = runs[static_cast<size_t>(k)];
    r.source = fmt::format("nccl-tests run {} of {} ({})", k + 1, n, file_name);
    if (alike) {
      r.separate_runs = n;
      r.notes.push_back(fmt::format("run {} of {} separate runs of {} in this file, each with its own table: the "
                                    "processes did not join one communicator",
                                    k + 1, n, r.op));
    } else {
      r.notes.push_back(fmt::format("run {} of {} in this file", k + 1, n));
    }
  }
}

}  // namespace

core::Result<std::vector<core::CollectiveRun>> parse_nccl_tests_runs(std::string_view text, const std::string& file_name) {
  Log log;
  bool any_sign = false;  // anything that makes this an nccl-tests log even without rows
  const auto lines = benchmark_lines(text);
  const bool input_ends_open = !text.empty() && text.back() != '\n';  // the last line may be cut inside a word
  for (size_t i = 0; i < lines.size(); ++i) {
    const auto& line = lines[i];
    const auto t = trim(line.text);
    if (t.empty()) continue;
    const bool last = is_last_line(lines, i);
    read_version(t, log);
    if (is_nccl_debug_line(t)) {
      read_nccl_debug_line(t, line.number, log.debug);
      if (is_nccl_warn_line(t)) quote(log.warns, log.more_warns, line, t);
      continue;
    }
    if (is_nccl_failure_line(t)) {
      quote(log.failures, log.more_failures, line, t);
      any_sign = true;
      continue;
    }
    if (!log.binary_op) log.binary_op = find_nccl_binary_op(t);
    if (t[0] == '#' || starts_with(t, "nThread ")) {
      if (auto c = parse_nccl_column_header(t)) {
        log.new_segment_if_rows();
        log.columns = *c;
        log.cpu_time = log.cpu_time || c->cpu_time;
        log.header_line = line.number;
        any_sign = true;
      } else {
        if (const auto bad = read_comment(t, line, last, input_ends_open, log)) {
          return line_error(file_name, line.number, *bad);
        }
        any_sign = any_sign || !log.parts.empty() || log.units_line || log.header_line > 0 || !log.failures.empty();
      }
      continue;
    }
    const auto cells = split_ws(t);
    if (!looks_like_nccl_row(cells)) continue;
    auto row = parse_nccl_row(cells, log.columns);
    if (!row) {
      // Only a short last row is a cut paste; a complete row with a bad cell stays an error.
      const auto& msg = row.error().message;  // "expected 13 cells (...), found 11"
      const auto e = msg.find("expected "), f = msg.find("found ");
      const bool short_row = e != std::string::npos && f != std::string::npos &&
                             std::atoi(msg.c_str() + f + 6) < std::atoi(msg.c_str() + e + 9);
      if (!last || !short_row) return line_error(file_name, line.number, row.error().message);
      // A paste cut inside its last row: keep the rows before it.
      log.cut_row = fmt::format("line {}: the paste ends inside this row ({}); the rows before it are read",
                                line.number, row.error().message);
      any_sign = true;
      continue;
    }
    // A size seen again is another process's row only when Rank lines repeated too (nccl-tests
    // itself prints size 0 twice for tiny all_gather sizes).
    size_t procs = 1;
    for (const auto& [rank, seen] : log.rank_seen) procs = std::max(procs, seen);
    const size_t k = std::min(log.size_seen[row.value().size_bytes]++, procs - 1);
    log.part(k).rows.push_back(std::move(row).value());
    log.seg_has_rows = true;
    any_sign = true;
  }
  if (log.parts.empty() && !any_sign && log.warns.empty() && log.debug.devices.empty()) {
    return core::input_error(file_name + ": no nccl-tests result table found");
  }
  log.only_debug = !any_sign && log.warns.empty();
  if (log.parts.empty()) log.parts.emplace_back();
  std::vector<core::CollectiveRun> runs;
  for (auto& p : log.parts) {
    auto run = build_run(log, p, file_name);
    if (!runs.empty() && same_rows(runs.front(), run)) {
      runs.front().notes.push_back("the same table appears again in the file (pasted twice): read once");
      continue;
    }
    runs.push_back(std::move(run));
  }
  mark_separate_runs(runs, file_name);
  return runs;
}

core::Result<core::CollectiveRun> parse_nccl_tests(std::string_view text, const std::string& file_name) {
  auto runs = parse_nccl_tests_runs(text, file_name);
  if (!runs) return runs.error();
  return std::move(runs.value().front());
}

bool looks_like_nccl_tests(std::string_view text) {
  int prefixed_rows = 0;
  int rank_lines = 0;
  int debug_lines = 0;
  bool units = false;
  for (const auto& line : split_lines(text)) {
    bool prefixed = false;
    const auto t = trim(strip_launcher_prefix(strip_quote_prefix(line.text), &prefixed));
    if (t.empty()) continue;
    if (t[0] == '#') {
      if (parse_nccl_column_header(t)) return true;
      const auto c = split_ws(t.substr(1));
      if (c.size() >= 3 && c[0] == "nThread" && c[2] == "nGpus") return true;
      if (c.size() >= 3 && c[0] == "bytes" && c[1] == "N" && c[2] == "type") return true;
      if (t.find("Collective test starting:") != std::string_view::npos) return true;
      bool cut = false;
      if (const auto r = read_nccl_rank_line(t.substr(1), &cut); r && !cut) ++rank_lines;
      if (c.size() >= 2 && c[0] == "(B)" && c[1] == "(elements)") units = true;
      continue;
    }
    if (starts_with(t, "nThread ") && t.find(" nGpus ") != std::string_view::npos) return true;
    if (is_nccl_debug_line(t) && t.find("] NCCL ") != std::string_view::npos) ++debug_lines;
    const auto cells = split_ws(t);
    const bool row = looks_like_nccl_row(cells) && parse_nccl_row(cells, NcclColumns{}).ok();
    if (row && (prefixed || units)) ++prefixed_rows;
  }
  return prefixed_rows > 0 || rank_lines > 0 || debug_lines > 0;
}

}  // namespace gpuvet::parsers
