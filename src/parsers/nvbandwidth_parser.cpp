// Parser of nvbandwidth's text output: a line-by-line walk that opens a testcase at "Running KEY.",
// reads each matrix (title, column header, rows, SUM) and records waived, failed and unfinished ones.
#include "parsers/nvbandwidth_parser.hpp"

#include <algorithm>
#include <cctype>
#include <exception>
#include <fmt/format.h>

#include "parsers/bandwidth_plausibility.hpp"
#include "parsers/benchmark_log_lines.hpp"
#include "parsers/nvbandwidth_matrix_text.hpp"
#include "parsers/text_lines.hpp"
#include "parsers/topo_common.hpp"

namespace gpuvet::parsers {

namespace {

constexpr const char* kTool = "nvbandwidth";
constexpr const char* kNa = "nvbandwidth printed N/A (pair not measured)";
constexpr const char* kNoSum = "no SUM line after this matrix";
constexpr const char* kRan = "no status printed: the testcase ran";

bool is_elision(std::string_view t) { return t == "..." || t == "\xE2\x80\xA6" || (t.size() > 3 && t.find_first_not_of('.') == std::string_view::npos); }

bool is_key(std::string_view k) {
  if (k.empty()) return false;
  for (const char c : k) {
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return false;
  }
  return true;
}

// "Running KEY." / "Waiving KEY." -> KEY; empty when `t` is not that line.
std::string keyed_line(std::string_view t, std::string_view verb) {
  if (!starts_with(t, verb) || t.size() < verb.size() + 2 || t.back() != '.') return {};
  const auto k = t.substr(verb.size(), t.size() - verb.size() - 1);
  return is_key(k) ? std::string(k) : std::string();
}

bool is_title(std::string_view t) {
  return (t.find("(row)") != std::string_view::npos || t.find("(column)") != std::string_view::npos) && !unit_of_title(t).empty();
}

bool is_assertion(std::string_view t) {
  return (starts_with(t, "[") && t.find("] ") != std::string_view::npos) || starts_with(t, "ASSERT in expression") ||
         starts_with(t, "NVML_ERROR");
}

bool is_status_line(std::string_view t) { return starts_with(t, "ERROR") || starts_with(t, "Error:"); }

// v0.6 and later print these two lines after their last testcase (nvbandwidth.cpp main:
// output->printInfo() after the testcases; v0.2-v0.5 print another NOTE before them, none after).
constexpr std::string_view kClosingNote = "NOTE: The reported results may not reflect the full capabilities";

// "v0.8" -> true from v0.6 on: the output of a whole run ends with kClosingNote.
bool closes_with_note(const core::Reading<std::string>& version) {
  if (!version || version->size() < 2 || (*version)[0] != 'v') return false;
  int major = 0, minor = 0;
  const auto dot = version->find('.');
  if (dot == std::string::npos || !parse_int(std::string_view(*version).substr(1, dot - 1), major)) return false;
  auto rest = std::string_view(*version).substr(dot + 1);
  rest = rest.substr(0, std::min(rest.size(), rest.find_first_not_of("0123456789")));
  if (!parse_int(rest, minor)) return false;
  return major > 0 || minor >= 6;
}

// The data check after a copy found bytes it did not write (nvbandwidth memcpy.cpp
// memcmpPatternHelper: "Invalid value when checking the pattern at 0x...", nvbandwidth#34).
bool is_data_check_line(std::string_view t) {
  return t.find("checking the pattern") != std::string_view::npos || t.find("miscompare") != std::string_view::npos ||
         t.find("Miscompare") != std::string_view::npos;
}

// A testcase key nvbandwidth prints in its SUM lines (grep'ed pastes keep only those).
bool is_nvbandwidth_key(std::string_view k) {
  return k.find("memcpy") != std::string_view::npos || k.find("latency") != std::string_view::npos ||
         k.find("local_copy") != std::string_view::npos || k.find("_ce") != std::string_view::npos ||
         k.find("_sm") != std::string_view::npos;
}

// A line that ends a matrix's rows.
bool ends_rows(std::string_view t) {
  return t.empty() || starts_with(t, "SUM ") || starts_with(t, "&&&&") || !keyed_line(t, "Running ").empty() ||
         !keyed_line(t, "Waiving ").empty() || starts_with(t, "Waived:") || is_status_line(t) || is_assertion(t) ||
         is_elision(t) || is_title(t);
}

// v0.6+ print a bidirectional testcase as three matrices: "... Read1 bandwidth", "Read2", "Total".
std::string part_suffix(std::string_view title) {
  for (const char* part : {"Read1", "Read2", "Write1", "Write2", "Total"}) {
    if (title.find(fmt::format(" {} ", part)) == std::string_view::npos) continue;
    std::string s = "_" + std::string(part);
    for (auto& c : s) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    return s;
  }
  return {};
}

// "NVIDIA H100 80GB HBM3 (00000000:1b:00)" -> "NVIDIA H100 80GB HBM3" (v0.5+ add the PCI id).
std::string strip_pci_id(std::string_view name) {
  const auto open = name.rfind(" (");
  if (open == std::string_view::npos || name.back() != ')') return std::string(name);
  const auto id = name.substr(open + 2, name.size() - open - 3);
  size_t colons = 0;
  for (const char c : id) {
    if (c == ':') ++colons;
    else if (!std::isxdigit(static_cast<unsigned char>(c))) return std::string(name);
  }
  return colons == 2 ? std::string(trim(name.substr(0, open))) : std::string(name);
}

// "NVIDIA H100 80GB HBM3 (00000000:1b:00)" -> "0000:1b:00.0"; "" when no PCI id is printed.
std::string pci_id_of(std::string_view name) {
  const auto open = name.rfind(" (");
  if (open == std::string_view::npos || name.back() != ')') return {};
  const auto id = std::string(name.substr(open + 2, name.size() - open - 3)) + ".0";
  const auto normal = core::normalize_pci_bus_id(id);
  return normal == id ? std::string() : normal;
}

class Walker {
 public:
  Walker(const std::vector<Line>& lines, const std::string& file, bool ends_open)
      : lines_(lines), file_(file), ends_open_(ends_open) {
    run_.tool = kTool;
    run_.source = fmt::format("nvbandwidth ({})", file);
    run_.tool_version = core::Absent{"no \"nvbandwidth Version\" line in this output"};
    run_.driver_version = core::Absent{"no \"Driver Version\" line in this output"};
    run_.p2p_access = core::Absent{"nvbandwidth does not print peer access"};
  }

  core::Result<core::BandwidthRun> walk() {
    size_t i = 0;
    while (i < lines_.size()) {
      auto next = step(i);
      if (!next) return next.error();
      i = next.value();
    }
    const bool unfinished = !running_.empty() && in_running_ == 0;
    if (unfinished) not_finished(cut_ ? "the paste is cut" : "the output ends");
    if (run_.matrices.empty() && !saw_testcase_ && (run_.tool_version || !run_.device_names.empty())) {
      // nvbandwidth's own header and device list, then nothing: a run cut (or pasted) before
      // its first testcase is an incomplete measurement, not another format.
      run_.notes.push_back(fmt::format("line {}: the output ends after nvbandwidth's header{}: no testcase is in it, "
                                       "nothing was measured (cut, or pasted without its results)",
                                       lines_.back().number,
                                       run_.device_names.empty() ? std::string()
                                                                 : fmt::format(" and its {} device line(s)", run_.device_names.size())));
      return std::move(run_);
    }
    judge_end(unfinished);
    if (run_.matrices.empty() && !saw_testcase_) {
      const int last = lines_.empty() ? 1 : lines_.back().number;
      return line_error(file_, last,
                        fmt::format("{} without an nvbandwidth testcase (\"Running KEY.\" or a matrix title)",
                                    lines_.empty() ? "empty input" : "reached the end of the input"));
    }
    return std::move(run_);
  }

 private:
  // Whether the output reaches nvbandwidth's end (BandwidthRun::cut otherwise). v0.6+ end every
  // run with kClosingNote; older versions print nothing after the last testcase, so there only a
  // paste that ends inside a testcase, or holds one testcase alone, shows it may be cut.
  void judge_end(bool unfinished) {
    if (closed_ || (!saw_testcase_ && run_.matrices.empty())) return;
    const std::string last = last_key_.empty() ? std::string("its last testcase") : last_key_;
    if (closes_with_note(run_.tool_version)) {
      run_.cut = fmt::format("the output ends without the NOTE lines nvbandwidth {} prints after its last testcase: it was "
                             "cut or stopped in or after {}, and the testcases after it are not in it",
                             *run_.tool_version, last);
    } else if (cut_ || unfinished) {
      run_.cut = fmt::format("the paste ends inside {}: it and the testcases after it are not in it", last);
    } else if (testcases_ == 1) {
      run_.cut = fmt::format("the output holds one testcase ({}) and nothing after it: it was cut after it, or nvbandwidth "
                             "ran it alone (-t); the other testcases are not in it",
                             last);
    }
  }

  // Handles line i; returns the index of the next line to read.
  core::Result<size_t> step(size_t i) {
    const auto& line = lines_[i];
    const auto t = trim(line.text);
    if (t.empty()) return i + 1;
    if (is_data_check_line(t) || is_crash_line(t)) run_.failures.push_back(quote_line(line.number, t));
    if (is_elision(t)) {
      run_.notes.push_back(fmt::format("line {}: lines elided (\"{}\") in the pasted output", line.number, t));
      elided_ = true;
      return i + 1;
    }
    if (starts_with(t, kClosingNote)) closed_ = true;
    if (starts_with(t, "nvbandwidth Version:")) run_.tool_version = std::string(trim(t.substr(20)));
    else if (starts_with(t, "Driver Version:")) run_.driver_version = std::string(trim(t.substr(15)));
    else if (is_title(t)) return read_matrix(i);  // before "Device ": "Device to Device Latency SM ..."
    else if (starts_with(t, "Device ")) read_device(t);
    else if (auto key = keyed_line(t, "Running "); !key.empty()) return open_running(line, key);
    else if (auto waived = keyed_line(t, "Waiving "); !waived.empty()) return waive(line, waived);
    else if (starts_with(t, "Waived:")) return waive(line, "");
    else if (is_status_line(t) || is_assertion(t)) record_status(line, t);
    else if (starts_with(t, "SUM ") || starts_with(t, "&&&& PERF ")) return read_sum(line, t);
    return i + 1;  // NOTE lines, CUDA versions, host names, "Using ..." lines: not needed
  }

  void read_device(std::string_view t) {
    const auto colon = t.find(':');
    int index = -1;
    if (colon == std::string_view::npos || !parse_int(trim(t.substr(7, colon - 7)), index) || index < 0 || index > 4096) return;
    const auto name = strip_pci_id(trim(t.substr(colon + 1)));
    if (static_cast<size_t>(index) >= run_.device_names.size()) {
      run_.device_names.resize(static_cast<size_t>(index) + 1);
      run_.device_bus_ids.resize(static_cast<size_t>(index) + 1);
    }
    run_.device_names[static_cast<size_t>(index)] = name;
    run_.device_bus_ids[static_cast<size_t>(index)] = pci_id_of(trim(t.substr(colon + 1)));
  }

  // Closes the open testcase before another starts; one that printed nothing is an error
  // unless lines were elided or it stopped on an error.
  core::Result<bool> close_running(const Line& next) {
    if (!running_.empty() && in_running_ == 0) {
      if (!status_.empty()) {
        push_status_only(running_, status_);
      } else if (elided_) {
        run_.notes.push_back(fmt::format("line {}: the output of {} is elided; no matrix", running_line_, running_));
      } else {
        return line_error(file_, running_line_,
                          fmt::format("testcase {} has no matrix before {} (line {})", running_, quoted(trim(next.text)), next.number));
      }
    }
    running_.clear();
    status_.clear();
    in_running_ = 0;
    elided_ = false;
    last_matrix_open_ = false;
    return true;
  }

  core::Result<size_t> open_running(const Line& line, const std::string& key) {
    auto closed = close_running(line);
    if (!closed) return closed.error();
    running_ = key;
    running_line_ = line.number;
    saw_testcase_ = true;
    last_key_ = key;
    ++testcases_;
    return static_cast<size_t>(&line - lines_.data()) + 1;
  }

  core::Result<size_t> waive(const Line& line, const std::string& key) {
    auto closed = close_running(line);
    if (!closed) return closed.error();
    saw_testcase_ = true;
    if (!key.empty()) last_key_ = key;
    ++testcases_;
    core::BandwidthMatrix m;
    m.testcase = key;
    m.title = std::string(trim(line.text));
    m.status = std::string("WAIVED");
    m.printed_sum = core::Absent{"testcase waived"};
    if (key.empty()) run_.notes.push_back(fmt::format("line {}: a testcase was waived; nvbandwidth >= 0.5 does not name it", line.number));
    run_.matrices.push_back(std::move(m));
    return static_cast<size_t>(&line - lines_.data()) + 1;
  }

  void record_status(const Line& line, std::string_view t) {
    if (is_assertion(t)) run_.failures.push_back(quote_line(line.number, t));
    if (!running_.empty() && in_running_ == 0 && status_.empty()) {
      status_ = std::string(t);
      if (is_status_line(t)) {  // the testcase failed; the run goes on
        push_status_only(running_, status_);
        in_running_ = 1;
      }
      return;
    }
    run_.notes.push_back(fmt::format("line {}: nvbandwidth printed {}", line.number, quoted(t)));
  }

  void push_status_only(const std::string& key, const std::string& status) {
    core::BandwidthMatrix m;
    m.testcase = key;
    m.status = status;
    m.printed_sum = core::Absent{"testcase did not produce a matrix"};
    run_.matrices.push_back(std::move(m));
  }

  void not_finished(const std::string& why) {
    const std::string what = status_.empty() ? why : status_;
    run_.notes.push_back(fmt::format("line {}: testcase {} did not finish: {}", running_line_, running_, what));
    push_status_only(running_, "did not finish: " + what);
  }

  core::Result<size_t> read_matrix(size_t i) {
    const auto& title = lines_[i];
    core::BandwidthMatrix m;
    m.title = std::string(trim(title.text));
    m.unit = unit_of_title(m.title);
    m.testcase = running_.empty() ? std::string() : running_ + part_suffix(m.title);
    m.printed_sum = core::Absent{kNoSum};
    m.status = core::Absent{kRan};
    const std::string name = m.testcase.empty() ? quoted(m.title) : m.testcase;
    size_t h = i + 1;
    if (h >= lines_.size()) return h;  // cut after the title: the testcase did not finish
    if (is_last_line(lines_, i) || is_last_line(lines_, h)) {
      // The paste ends at the title or inside the column header: the matrix is not in it.
      run_.notes.push_back(fmt::format("line {}: the paste ends at the title or column header of {}; its matrix is not in it",
                                       title.number, name));
      cut_ = true;
      return lines_.size();
    }
    const auto header = split_ws(lines_[h].text);
    if (header.empty() || ends_rows(trim(lines_[h].text))) {
      return line_error(file_, lines_[h].number, fmt::format("expected the column header of {} (title on line {})", name, title.number));
    }
    m.column_labels = header;
    const MatrixRowSpec spec{kTool, name, header.size(), true, kNa, m.unit};
    size_t k = h + 1;
    for (; k < lines_.size() && !ends_rows(trim(lines_[k].text)); ++k) {
      if (ends_open_ && k + 1 == lines_.size() && append_row_cut_in_last_cell(lines_[k], spec, m, file_)) {
        run_.notes.push_back(fmt::format("line {}: the paste ends inside the last value of this row of {} (no line end after "
                                         "it); that value is not read",
                                         lines_[k].number, name));
        cut_ = true;
        continue;
      }
      auto ok = append_matrix_row(lines_[k], spec, m, file_);
      if (ok) continue;
      // Only a short last row is a cut paste; a complete row with a bad cell stays an error.
      if (!is_last_line(lines_, k) || split_ws(lines_[k].text).size() > header.size()) return ok.error();
      // A paste cut inside its last line: keep the complete rows before it.
      run_.notes.push_back(fmt::format("line {}: the paste ends inside this row of {} ({}); the row is not read",
                                       lines_[k].number, name, quoted(trim(lines_[k].text))));
      cut_ = true;
      k = lines_.size();
      break;
    }
    if (m.values.empty()) {
      if (k >= lines_.size()) return k;
      return line_error(file_, lines_[k].number, fmt::format("expected the rows of {} after its column header (line {})", name, lines_[h].number));
    }
    if (m.title.find("GPU(row)") != std::string::npos && m.values.size() < header.size()) {
      run_.notes.push_back(fmt::format("line {}: {} has {} of {} rows; the output is cut", title.number, name, m.values.size(), header.size()));
      cut_ = true;
    }
    if (running_.empty()) run_.notes.push_back(fmt::format("line {}: matrix {} without a \"Running KEY.\" line", title.number, quoted(m.title)));
    run_.matrices.push_back(std::move(m));
    ++in_running_;
    last_matrix_open_ = true;
    return k;
  }

  // "SUM KEY 9643.22" or, with --perfFormatter, "&&&& PERF KEY 9643.22 +GB/s".
  core::Result<size_t> read_sum(const Line& line, std::string_view t) {
    const auto cells = split_ws(t);
    const bool perf = cells[0] == "&&&&";
    const size_t at = perf ? 2 : 1;
    double v = 0;
    const size_t next_line = static_cast<size_t>(&line - lines_.data()) + 1;
    if (cells.size() < at + 2 && is_last_line(lines_, next_line - 1)) {
      // "SUM host_to_device_me": the paste ends inside the SUM line; the total is not in it.
      run_.notes.push_back(fmt::format("line {}: the paste ends inside a SUM line ({}); that total is not read", line.number,
                                       quoted(t)));
      last_matrix_open_ = false;
      cut_ = true;
      return next_line;
    }
    if (cells.size() < at + 2 || cells.size() > at + 3 || !is_key(cells[at]) || !parse_decimal(cells[at + 1], v)) {
      return line_error(file_, line.number, fmt::format("expected \"SUM KEY VALUE\", found {}", quoted(t)));
    }
    const size_t next = static_cast<size_t>(&line - lines_.data()) + 1;
    if (run_.matrices.empty() || !last_matrix_open_) {
      if (!running_.empty() || !is_nvbandwidth_key(cells[at])) {
        run_.notes.push_back(fmt::format("line {}: SUM {} without its matrix", line.number, cells[at]));
        return next;
      }
      // Output filtered down to its SUM lines (grep SUM): the total is all there is of this testcase.
      if (const auto why = implausible_gbps(v, kMaxPlausibleGbps * 4096.0); why && !starts_with(cells[at], "host_device_latency")) {
        return line_error(file_, line.number, fmt::format("SUM {} {} {}", cells[at], cells[at + 1], *why));
      }
      core::BandwidthMatrix m;
      m.testcase = cells[at];
      m.title = std::string(t);
      m.printed_sum = v;
      m.status = core::Absent{"only the SUM line is in the paste"};
      run_.matrices.push_back(std::move(m));
      saw_testcase_ = true;
      if (!sum_only_noted_) {
        run_.notes.push_back(fmt::format("line {}: SUM lines without their matrices (output filtered to its SUM lines?): "
                                         "totals only, no per-GPU or per-pair value to judge", line.number));
        sum_only_noted_ = true;
      }
      return next;
    }
    auto& m = run_.matrices.back();
    last_matrix_open_ = false;
    // The SUM adds every cell, so its ceiling is the per-link one times the cells.
    const double cells_summed = static_cast<double>(std::max<size_t>(1, m.values.size() * m.column_labels.size()));
    const auto why = m.unit == "GB/s" ? implausible_gbps(v, kMaxPlausibleGbps * cells_summed) : implausible_non_negative(v);
    if (why) return line_error(file_, line.number, fmt::format("SUM {} {} {}", cells[at], cells[at + 1], *why));
    if (m.testcase.empty() || starts_with(cells[at], running_)) {
      m.testcase = cells[at];
    } else if (m.testcase != cells[at]) {
      run_.notes.push_back(fmt::format("line {}: SUM names {} but the matrix belongs to {}", line.number, cells[at], m.testcase));
    }
    m.printed_sum = v;
    return next;
  }

  const std::vector<Line>& lines_;
  const std::string& file_;
  bool ends_open_ = false;  // the input's last line has no line end: it may be cut
  core::BandwidthRun run_;
  std::string running_;  // key of the open "Running KEY." testcase
  int running_line_ = 0;
  int in_running_ = 0;   // matrices (or a status) recorded since "Running KEY."
  std::string status_;   // an error or assertion printed inside the open testcase
  bool elided_ = false;
  bool saw_testcase_ = false;
  bool last_matrix_open_ = false;  // the last matrix may still take its SUM line
  bool cut_ = false;               // the paste ends inside a testcase (a row, a title, a SUM line)
  bool closed_ = false;            // kClosingNote seen: the run reached its end
  std::string last_key_;           // the last testcase named ("Running KEY.", "Waiving KEY.")
  int testcases_ = 0;              // testcases opened or waived
  bool sum_only_noted_ = false;
};

}  // namespace

core::Result<core::BandwidthRun> parse_nvbandwidth(std::string_view text, const std::string& file_name) {
  try {
    const auto lines = benchmark_lines(text);
    // Without a line end after it, the last line may stop inside a number ("55.3" of "55.34").
    const bool ends_open = !text.empty() && text.back() != '\n';
    return Walker(lines, file_name, ends_open).walk();
  } catch (const std::exception& e) {
    return core::internal_error(fmt::format("{}: parsing nvbandwidth output failed: {}", file_name, e.what()));
  }
}

bool looks_like_nvbandwidth(std::string_view text) {
  const auto lines = benchmark_lines(text);
  for (size_t i = 0; i < lines.size(); ++i) {
    const auto t = trim(lines[i].text);
    if (starts_with(t, "nvbandwidth Version")) return true;
    if (starts_with(t, "SUM ")) {
      const auto cells = split_ws(t);
      double v = 0;
      if (cells.size() == 3 && is_key(cells[1]) && is_nvbandwidth_key(cells[1]) && parse_decimal(cells[2], v)) return true;
    }
    if (keyed_line(t, "Running ").empty()) continue;
    for (size_t j = i + 1; j < lines.size(); ++j) {
      const auto n = trim(lines[j].text);
      if (n.empty()) continue;
      if (is_title(n)) return true;
      break;
    }
  }
  return false;
}

}  // namespace gpuvet::parsers
