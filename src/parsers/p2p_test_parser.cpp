// Parser of p2pBandwidthLatencyTest output: device and peer-access lines, the connectivity matrix,
// and the bandwidth / latency matrices, each a title, a "D\D" / "GPU" / "CPU" header and square rows.
#include "parsers/p2p_test_parser.hpp"

#include <algorithm>
#include <exception>
#include <fmt/format.h>
#include <optional>

#include "parsers/benchmark_log_lines.hpp"
#include "parsers/nvbandwidth_matrix_text.hpp"
#include "parsers/text_lines.hpp"
#include "parsers/topo_common.hpp"

namespace gpuvet::parsers {

namespace {

constexpr const char* kTool = "p2pBandwidthLatencyTest";
constexpr const char* kNotPrinted = "p2pBandwidthLatencyTest does not print it";
constexpr const char* kConnectivity = "P2P Connectivity Matrix";
// The sample prints this after its last matrix (p2pBandwidthLatencyTest.cu main, before exit):
// output with matrices but without it stopped early or was cut.
constexpr std::string_view kClosingNote = "NOTE: The CUDA Samples are not meant for performance measurements";

bool contains(std::string_view t, std::string_view part) { return t.find(part) != std::string_view::npos; }

// The testcase key of a matrix title ("" when `t` is not one). Latency titles name the GPU block;
// the CPU block after it takes the "cpu" key.
std::string key_of_title(std::string_view t) {
  const bool enabled = contains(t, "P2P=Enabled");
  if (!enabled && !contains(t, "P2P=Disabled")) return {};
  if (!contains(t, "Matrix")) return {};
  const std::string state = enabled ? "p2p_enabled" : "p2p_disabled";
  if (contains(t, "Latency") && contains(t, "(us)")) return "p2p_latency_gpu_" + state;
  if (!contains(t, "Bandwidth") || !contains(t, "(GB/s)")) return {};
  if (starts_with(t, "Unidirectional")) return "p2p_unidirectional_" + state;
  if (starts_with(t, "Bidirectional")) return "p2p_bidirectional_" + state;
  return {};
}

bool is_row_start(std::string_view t) {
  const auto cells = split_ws(t);
  int k = -1;
  return !cells.empty() && parse_int(cells[0], k);
}

class Walker {
 public:
  Walker(const std::vector<Line>& lines, const std::string& file, bool ends_open)
      : lines_(lines), file_(file), ends_open_(ends_open) {
    run_.tool = kTool;
    run_.source = fmt::format("p2pBandwidthLatencyTest ({})", file);
    run_.tool_version = core::Absent{kNotPrinted};
    run_.driver_version = core::Absent{kNotPrinted};
    run_.p2p_access = core::Absent{"no peer access lines or P2P Connectivity Matrix in this output"};
  }

  core::Result<core::BandwidthRun> walk() {
    size_t i = 0;
    while (i < lines_.size()) {
      const auto t = trim(lines_[i].text);
      core::Result<size_t> next = i + 1;
      if (is_crash_line(t) || is_test_failure(t)) run_.failures.push_back(quote_line(lines_[i].number, t));
      if (starts_with(t, kClosingNote)) closed_ = true;
      if (starts_with(t, "Device:")) read_device(t);
      else if (starts_with(t, "Device=")) read_peer_line(t);
      else if (t == kConnectivity) next = read_connectivity(i);
      else if (auto key = key_of_title(t); !key.empty()) next = read_titled(i, key);
      if (!next) return next.error();
      i = next.value();
    }
    if (run_.matrices.empty() && !connectivity_ && run_.device_names.empty() && peer_lines_.empty() && run_.failures.empty()) {
      const int last = lines_.empty() ? 1 : lines_.back().number;
      return line_error(file_, last,
                        fmt::format("{} without a p2pBandwidthLatencyTest matrix (a \"... Bandwidth Matrix (GB/s)\", "
                                    "\"... Latency Matrix (us)\" or \"P2P Connectivity Matrix\" title)",
                                    lines_.empty() ? "empty input" : "reached the end of the input"));
    }
    fill_access();
    if (!run_.matrices.empty() && !closed_) {
      run_.cut = fmt::format("the output stops after the \"{}\" matrix, before the NOTE line p2pBandwidthLatencyTest prints "
                             "after its last one: the matrices after it are not in it",
                             run_.matrices.back().title);
    }
    return std::move(run_);
  }

 private:
  // "Device: 0, NVIDIA GeForce RTX 2080 Ti, pciBusID: b4, pciDeviceID: 0, pciDomainID:0"
  void read_device(std::string_view t) {
    const auto comma = t.find(',');
    int index = -1;
    if (comma == std::string_view::npos || !parse_int(trim(t.substr(7, comma - 7)), index) || index < 0 || index > 4096) return;
    auto rest = t.substr(comma + 1);
    const auto bus = rest.find(", pciBusID");
    const auto idx = static_cast<size_t>(index);
    if (idx >= run_.device_names.size()) {
      run_.device_names.resize(idx + 1);
      run_.device_bus_ids.resize(idx + 1);
    }
    run_.device_names[idx] = std::string(trim(rest.substr(0, bus)));
    run_.device_bus_ids[idx] = bus_id_of(rest);
  }

  // ", pciBusID: 1b, pciDeviceID: 0, pciDomainID:0" -> "0000:1b:00.0" (the sample prints hex).
  static std::string bus_id_of(std::string_view rest) {
    auto field = [&](std::string_view key) -> std::string {
      const auto at = rest.find(key);
      if (at == std::string_view::npos) return {};
      auto v = trim(rest.substr(at + key.size()));
      v = v.substr(0, v.find(','));
      return std::string(trim(v));
    };
    const auto bus = field("pciBusID:");
    const auto dev = field("pciDeviceID:");
    const auto dom = field("pciDomainID:");
    if (bus.empty() || bus.size() > 2 || bus.find_first_not_of("0123456789abcdefABCDEF") != std::string::npos) return {};
    const auto id = fmt::format("{}:{}:{}.0", dom.empty() ? "0" : dom, bus, dev.empty() ? "0" : dev);
    const auto normal = core::normalize_pci_bus_id(id);
    return normal.size() == 12 ? normal : std::string();
  }

  // The sample's own verdict lines when it fails ("Test failed!", checkCudaErrors' "CUDA error at").
  static bool is_test_failure(std::string_view t) {
    return starts_with(t, "Test failed") || starts_with(t, "FAILED") || t.find("Result = FAIL") != std::string_view::npos;
  }

  // "Device=0 CAN Access Peer Device=1" / "Device=1 CANNOT Access Peer Device=0"
  void read_peer_line(std::string_view t) {
    const auto cells = split_ws(t);
    int a = -1, b = -1;
    if (cells.size() != 5 || cells[2] != "Access" || cells[3] != "Peer" || !starts_with(cells[4], "Device=")) return;
    if (!parse_int(std::string_view(cells[0]).substr(7), a) || !parse_int(std::string_view(cells[4]).substr(7), b)) return;
    if (a < 0 || b < 0 || a > 4096 || b > 4096 || (cells[1] != "CAN" && cells[1] != "CANNOT")) return;
    peer_lines_.push_back({a, b, cells[1] == "CAN"});
  }

  // The input's last line is a column header that stops early: a start of "D\\D" / "GPU" / "CPU",
  // or fewer columns than the devices listed.
  bool header_is_cut(size_t h, const std::vector<std::string>& header) const {
    if (!is_last_line(lines_, h) || header.empty()) return false;
    const std::string_view first = header[0];
    const bool known = first == "D\\D" || first == "GPU" || first == "CPU";
    if (!known) {
      return header.size() == 1 && (starts_with("D\\D", first) || starts_with("GPU", first) || starts_with("CPU", first));
    }
    return header.size() < 2 || (!run_.device_names.empty() && header.size() - 1 < run_.device_names.size());
  }

  // Reads the column header at h and the square block of rows after it into m.
  core::Result<size_t> read_block(size_t title_at, size_t h, core::BandwidthMatrix& m, const std::string& name) {
    const auto& title = lines_[title_at];
    if (h >= lines_.size() || is_last_line(lines_, title_at)) {
      run_.notes.push_back(fmt::format("line {}: the paste ends at the title of {}; the matrix is not in it", title.number, name));
      return lines_.size();
    }
    const auto header = split_ws(lines_[h].text);
    if (header_is_cut(h, header)) {
      run_.notes.push_back(fmt::format("line {}: the paste ends inside the column header of {} ({}); the matrix is not in it",
                                       lines_[h].number, name, quoted(trim(lines_[h].text))));
      return lines_.size();
    }
    if (header.size() < 2 || (header[0] != "D\\D" && header[0] != "GPU" && header[0] != "CPU")) {
      return line_error(file_, lines_[h].number,
                        fmt::format("expected the column header of {} (\"D\\D 0 1 ...\", \"GPU 0 1 ...\" or \"CPU 0 1 ...\"), found {}",
                                    name, quoted(trim(lines_[h].text))));
    }
    m.column_labels.assign(header.begin() + 1, header.end());
    const size_t n = m.column_labels.size();
    if (!run_.device_names.empty() && n != run_.device_names.size()) {
      return line_error(file_, lines_[h].number,
                        fmt::format("{} has {} columns but the output lists {} devices", name, n, run_.device_names.size()));
    }
    const MatrixRowSpec spec{kTool, name, n, false, "", m.unit};
    size_t k = h + 1;
    for (; k < lines_.size() && is_row_start(lines_[k].text); ++k) {
      if (ends_open_ && k + 1 == lines_.size() && append_row_cut_in_last_cell(lines_[k], spec, m, file_)) {
        run_.notes.push_back(fmt::format("line {}: the paste ends inside the last value of this row of {} (no line end after "
                                         "it); that value is not read",
                                         lines_[k].number, name));
        continue;
      }
      auto ok = append_matrix_row(lines_[k], spec, m, file_);
      if (ok) continue;
      // Only a short last row is a cut paste; a complete row with a bad cell stays an error.
      if (!is_last_line(lines_, k) || split_ws(lines_[k].text).size() > n) return ok.error();
      run_.notes.push_back(fmt::format("line {}: the paste ends inside this row of {} ({}); the row is not read",
                                       lines_[k].number, name, quoted(trim(lines_[k].text))));
      k = lines_.size();
      break;
    }
    if (m.values.size() != n && (k >= lines_.size() || is_last_line(lines_, k - 1))) {
      // Cut by the paste: the complete rows are kept (judged on their own), an empty matrix is dropped.
      run_.notes.push_back(fmt::format("line {}: {} has {} of {} rows; the paste is cut", title.number, name, m.values.size(), n));
      return lines_.size();
    }
    if (m.values.size() != n) {
      const int at = k < lines_.size() ? lines_[k].number : lines_.back().number;
      return line_error(file_, at, fmt::format("{} has {} rows, expected {} (one per column of the header on line {})", name,
                                               m.values.size(), n, lines_[h].number));
    }
    return k;
  }

  core::Result<size_t> read_connectivity(size_t i) {
    core::BandwidthMatrix m;
    auto next = read_block(i, i + 1, m, kConnectivity);
    if (!next || m.values.size() != m.column_labels.size()) return next;  // cut: access stays unknown
    for (const auto& row : m.values) {
      for (const auto& cell : row) {
        if (!cell.known()) return next;  // its last value cut by the paste: access stays unknown
      }
    }
    std::vector<std::vector<bool>> access;
    for (size_t r = 0; r < m.values.size(); ++r) {
      access.emplace_back();
      for (size_t c = 0; c < m.values[r].size(); ++c) {
        const double v = *m.values[r][c];
        if (v != 0.0 && v != 1.0) {
          return line_error(file_, lines_[i + 2 + r].number,
                            fmt::format("{} cell row {}, column {} is {}, expected 0 or 1", kConnectivity, m.row_labels[r], m.column_labels[c], v));
        }
        access.back().push_back(v == 1.0);
      }
    }
    connectivity_ = std::move(access);
    return next;
  }

  core::Result<size_t> read_titled(size_t i, const std::string& key) {
    const std::string title(trim(lines_[i].text));
    core::BandwidthMatrix m;
    m.testcase = key;
    m.title = title;
    m.unit = unit_of_title(title);
    m.printed_sum = core::Absent{kNotPrinted};
    m.status = core::Absent{"no status printed: the test ran"};
    auto next = read_block(i, i + 1, m, key);
    if (!next || m.values.empty()) return next;
    const bool latency = starts_with(key, "p2p_latency_gpu_");
    run_.matrices.push_back(std::move(m));
    if (!latency) return next;
    // The latency title covers two blocks: GPU, a blank line, then CPU.
    size_t c = next.value();
    while (c < lines_.size() && trim(lines_[c].text).empty()) ++c;
    if (c >= lines_.size() || !starts_with(trim(lines_[c].text), "CPU")) {
      run_.notes.push_back(fmt::format("line {}: {} has no CPU block", lines_[i].number, title));
      return next;
    }
    core::BandwidthMatrix cpu;
    cpu.testcase = "p2p_latency_cpu_" + key.substr(16);
    cpu.title = title;
    cpu.unit = unit_of_title(title);
    cpu.printed_sum = core::Absent{kNotPrinted};
    cpu.status = core::Absent{"no status printed: the test ran"};
    auto after = read_block(i, c, cpu, cpu.testcase);
    if (!after || cpu.values.empty()) return after;
    run_.matrices.push_back(std::move(cpu));
    return after;
  }

  void fill_access() {
    if (connectivity_) {
      run_.p2p_access = *connectivity_;
      for (const auto& p : peer_lines_) {
        const auto a = static_cast<size_t>(p.from), b = static_cast<size_t>(p.to);
        if (a < connectivity_->size() && b < connectivity_->size() && (*connectivity_)[a][b] != p.can) {
          run_.notes.push_back(fmt::format("Device={} {} Access Peer Device={} disagrees with the P2P Connectivity Matrix; "
                                           "the matrix is used", p.from, p.can ? "CAN" : "CANNOT", p.to));
        }
      }
      return;
    }
    if (peer_lines_.empty()) return;
    size_t n = run_.device_names.size();
    for (const auto& p : peer_lines_) n = std::max({n, static_cast<size_t>(p.from) + 1, static_cast<size_t>(p.to) + 1});
    // A pair the paste does not show is unknown: read as allowed, so that it raises no finding.
    std::vector<std::vector<bool>> access(n, std::vector<bool>(n, true));
    for (const auto& p : peer_lines_) access[static_cast<size_t>(p.from)][static_cast<size_t>(p.to)] = p.can;
    if (peer_lines_.size() != n * (n - 1)) {
      run_.notes.push_back(fmt::format("{} of {} Device=i CAN/CANNOT Access Peer Device=j lines printed; the missing pairs are "
                                       "unknown (not judged)",
                                       peer_lines_.size(), n * (n - 1)));
    }
    run_.p2p_access = std::move(access);
  }

  struct PeerLine {
    int from = 0;
    int to = 0;
    bool can = false;
  };

  const std::vector<Line>& lines_;
  const std::string& file_;
  bool ends_open_ = false;  // the input's last line has no line end: it may be cut
  bool closed_ = false;     // the sample's closing NOTE line was seen
  core::BandwidthRun run_;
  std::vector<PeerLine> peer_lines_;
  std::optional<std::vector<std::vector<bool>>> connectivity_;
};

}  // namespace

core::Result<core::BandwidthRun> parse_p2p_test(std::string_view text, const std::string& file_name) {
  try {
    const auto lines = benchmark_lines(text);
    // Without a line end after it, the last line may stop inside a number ("55.3" of "55.34").
    const bool ends_open = !text.empty() && text.back() != '\n';
    return Walker(lines, file_name, ends_open).walk();
  } catch (const std::exception& e) {
    return core::internal_error(fmt::format("{}: parsing p2pBandwidthLatencyTest output failed: {}", file_name, e.what()));
  }
}

bool looks_like_p2p_test(std::string_view text) {
  for (const auto& line : benchmark_lines(text)) {
    const auto t = trim(line.text);
    if (t == kConnectivity || starts_with(t, "[P2P (Peer-to-Peer) GPU Bandwidth Latency Test]") || !key_of_title(t).empty()) return true;
  }
  return false;
}

}  // namespace gpuvet::parsers
