// Parser of `nvidia-smi topo -m` output: finds the header, reads one row per device column in
// header order, checks the matrix (diagonal X, symmetry) and fills a core::Machine.
#include "parsers/topo_parser.hpp"

#include <cctype>
#include <exception>
#include <fmt/format.h>
#include <map>
#include <optional>
#include <fmt/ranges.h>

#include "parsers/text_lines.hpp"
#include "parsers/topo_cells.hpp"
#include "parsers/topo_common.hpp"

namespace gpuvet::parsers {

namespace {

constexpr const char* kNotInTopo = "not in nvidia-smi topo -m";
constexpr const char* kPrintedNa = "nvidia-smi printed N/A";
// The most NVLinks any GPU has (H100, B200: 18), for telling an NVSwitch from direct links.
constexpr int kMaxNvlinksPerGpu = 18;

// The columns after the device columns, as newer drivers print them.
enum class Extra { cpu_affinity, numa_affinity, gpu_numa_id };
struct ExtraName {
  Extra extra;
  std::string_view name;
};
constexpr ExtraName kExtraNames[] = {{Extra::cpu_affinity, "CPU Affinity"},
                                     {Extra::numa_affinity, "NUMA Affinity"},
                                     {Extra::gpu_numa_id, "GPU NUMA ID"}};

struct Header {
  int line = 0;
  int gpu_count = 0;
  std::vector<std::string> columns;  // device columns: GPU0..GPUn-1, then NICs
  std::vector<Extra> extras;
};

struct Row {
  int line = 0;
  std::vector<core::Link> cells;    // one per device column
  std::vector<std::string> extras;  // values under the affinity columns (GPU rows)
  bool last_value_cut = false;      // the paste ends inside the row's last value
};

bool is_gpu_label(std::string_view cell, int& k) {
  return starts_with(cell, "GPU") && parse_int(cell.substr(3), k) && k >= 0;
}

std::string_view name_of(Extra extra) {
  for (const auto& e : kExtraNames) {
    if (e.extra == extra) return e.name;
  }
  return "?";
}

std::string extra_names(const Header& h) {
  std::string out;
  for (const auto e : h.extras) out += (out.empty() ? "" : ", ") + std::string(name_of(e));
  return out;
}

// "GPU0..GPU7, NIC0..NIC1": the device columns, for error messages.
std::string describe_columns(const Header& h) {
  std::string out = h.gpu_count == 1 ? "GPU0" : fmt::format("GPU0..GPU{}", h.gpu_count - 1);
  const auto nics = static_cast<int>(h.columns.size()) - h.gpu_count;
  if (nics == 0) return out;
  bool numbered = true;
  for (int i = 0; i < nics; ++i) numbered = numbered && h.columns[static_cast<size_t>(h.gpu_count + i)] == fmt::format("NIC{}", i);
  if (numbered) return out + (nics == 1 ? ", NIC0" : fmt::format(", NIC0..NIC{}", nics - 1));
  for (int i = 0; i < nics; ++i) out += ", " + h.columns[static_cast<size_t>(h.gpu_count + i)];
  return out;
}

core::Result<Header> parse_header(const Line& line, const std::string& file) {
  Header h;
  h.line = line.number;
  const auto cells = split_ws(line.text);
  size_t i = 0;
  for (int k = -1; i < cells.size() && is_gpu_label(cells[i], k); ++i) {
    if (k != h.gpu_count) {
      return line_error(file, line.number, fmt::format("expected header column GPU{}, found {}", h.gpu_count, quoted(cells[i])));
    }
    h.columns.push_back(cells[i]);
    ++h.gpu_count;
  }
  // NIC columns ("NIC0"; old drivers print the device name, "mlx5_0") up to the affinity columns.
  for (; i < cells.size(); ++i) {
    const auto& c = cells[i];
    if (c == "CPU" || c == "NUMA" || (c == "GPU" && i + 1 < cells.size() && cells[i + 1] == "NUMA")) break;
    int k = -1;
    if (is_gpu_label(c, k)) {
      return line_error(file, line.number, fmt::format("header column {} after the NIC columns", quoted(c)));
    }
    for (const auto& seen : h.columns) {
      if (seen == c) return line_error(file, line.number, fmt::format("header column {} appears twice", quoted(c)));
    }
    h.columns.push_back(c);
  }
  std::string rest;
  for (; i < cells.size(); ++i) rest += (rest.empty() ? "" : " ") + cells[i];
  while (!rest.empty()) {
    bool matched = false;
    for (const auto& e : kExtraNames) {
      if (!starts_with(rest, e.name)) continue;
      h.extras.push_back(e.extra);
      rest = std::string(trim(std::string_view(rest).substr(e.name.size())));
      matched = true;
      break;
    }
    if (!matched) {
      return line_error(file, line.number,
                        fmt::format("unexpected header column {} (expected CPU Affinity, NUMA Affinity or GPU NUMA ID)", quoted(rest)));
    }
  }
  return h;
}

// Leading cells that look like link cells rather than affinity values (cpulists, numbers, N/A).
size_t count_link_cells(const std::vector<std::string>& cells, size_t from) {
  size_t n = 0;
  for (size_t i = from; i < cells.size(); ++i, ++n) {
    if (cells[i] == "N/A" || std::isdigit(static_cast<unsigned char>(cells[i][0]))) break;
  }
  return n;
}

core::Result<Row> parse_row(const Line& line, const std::vector<std::string>& cells, const Header& h, size_t r,
                            const std::string& file) {
  const auto& label = h.columns[r];
  const size_t ncols = h.columns.size();
  const size_t found = count_link_cells(cells, 1);
  if (found != ncols) {
    return line_error(file, line.number,
                      fmt::format("expected {} link cells for {} ({}), found {}", ncols, label, describe_columns(h), found));
  }
  Row row;
  row.line = line.number;
  for (size_t j = 0; j < ncols; ++j) {
    const auto& cell = cells[1 + j];
    const auto link = core::parse_link(cell);
    if (!link) {
      return line_error(file, line.number,
                        fmt::format("unknown link type {} in column {} of row {}", quoted(cell), h.columns[j], label));
    }
    if (j == r && link->kind != core::LinkKind::self) {
      return line_error(file, line.number, fmt::format("expected X on the diagonal (row {}, column {}), found {}", label, label, quoted(cell)));
    }
    if (j != r && link->kind == core::LinkKind::self) {
      return line_error(file, line.number, fmt::format("X off the diagonal in row {}, column {}", label, h.columns[j]));
    }
    row.cells.push_back(*link);
  }
  row.extras.assign(cells.begin() + static_cast<std::ptrdiff_t>(1 + ncols), cells.end());
  const bool is_gpu = r < static_cast<size_t>(h.gpu_count);
  // NIC rows normally stop after the link cells; accept the affinity values if a driver adds them.
  if (row.extras.size() != h.extras.size() && (is_gpu || !row.extras.empty())) {
    return line_error(file, line.number,
                      fmt::format("expected {} values after the link cells of {} ({}), found {}", h.extras.size(), label,
                                  h.extras.empty() ? "no affinity columns in the header" : extra_names(h), row.extras.size()));
  }
  return row;
}

// The error for a line where row `want` should be.
core::Error unexpected_row(const Line& line, const Header& h, const std::string& want, const std::string& file) {
  const auto cells = split_ws(line.text);
  if (cells.empty()) return line_error(file, line.number, fmt::format("expected row {} of the matrix, found an empty line", want));
  int k = -1;
  if (is_gpu_label(cells[0], k) && k >= h.gpu_count) {
    return line_error(file, line.number,
                      fmt::format("found a row for {}, but the header (line {}) has {}", cells[0], h.line, describe_columns(h)));
  }
  for (const auto& c : h.columns) {
    if (c == cells[0]) return line_error(file, line.number, fmt::format("expected row {}, found row {} (rows follow the header order)", want, c));
  }
  return line_error(file, line.number, fmt::format("expected row {} of the matrix, found {}", want, quoted(trim(line.text))));
}

// The rows read. A paste cut short keeps its complete rows: `complete` counts the rows read in
// full (GPU rows first), and `partial` holds the link cells of a cut last row.
struct Rows {
  std::vector<Row> rows;
  size_t complete = 0;
  std::vector<core::Link> partial;  // cells of the cut row, its last (maybe cut) cell dropped
  std::vector<std::string> notes;
  bool glued = false;               // some cells had no separator between them
};

bool is_last_text(const std::vector<Line>& lines, size_t li) {
  for (size_t i = li + 1; i < lines.size(); ++i) {
    if (!trim(lines[i].text).empty()) return false;
  }
  return true;
}

// The link cells of a row cut by the end of the input, up to the first cell that is not one.
std::vector<core::Link> cut_cells(const Line& line, const std::vector<std::string>& cells) {
  std::vector<core::Link> out;
  const bool last_whole = !line.text.empty() && (line.text.back() == ' ' || line.text.back() == '\t');
  const size_t n = cells.size() - (last_whole ? 0 : 1);
  for (size_t j = 1; j < n; ++j) {
    const auto link = core::parse_link(cells[j]);
    if (!link) break;
    out.push_back(*link);
  }
  return out;
}

core::Result<Rows> parse_rows(const std::vector<Line>& lines, size_t header_at, const Header& h, const std::string& file,
                              bool text_ends_without_newline) {
  Rows out;
  auto& rows = out.rows;
  for (size_t r = 0; r < h.columns.size(); ++r) {
    const size_t li = header_at + 1 + r;
    // The paste stops after the GPU rows although the header has NIC columns: the GPU rows
    // already hold every GPU-NIC path.
    const bool nic_row = r >= static_cast<size_t>(h.gpu_count);
    if (r > 0 && (li >= lines.size() || (nic_row && (trim(lines[li].text).empty() || is_last_text(lines, li - 1))))) {
      if (nic_row) {
        out.notes.push_back(fmt::format("{}: the matrix stops after the GPU rows (no row {}); the GPU rows give every GPU-NIC path",
                                        file, h.columns[r]));
        break;
      }
      out.notes.push_back(fmt::format("{}: line {}: the paste ends before row {}", file, lines.back().number, h.columns[r]));
      break;
    }
    if (li >= lines.size()) {
      return line_error(file, lines.back().number, fmt::format("expected row {} of the matrix, found end of input", h.columns[r]));
    }
    auto cells = split_ws(lines[li].text);
    cells = split_glued_cells(cells, out.glued);
    if (cells.empty() || cells[0] != h.columns[r]) {
      if (r > 0 && cells.empty() && is_last_text(lines, li)) {
        out.notes.push_back(fmt::format("{}: line {}: the paste ends before row {}", file, lines[li].number, h.columns[r]));
        break;
      }
      return unexpected_row(lines[li], h, h.columns[r], file);
    }
    auto row = parse_row(lines[li], cells, h, r, file);
    if (!row) {
      // Only a row cut short by the end of the input is kept in part; any other fault is an error.
      if (r == 0 || !is_last_text(lines, li) || count_link_cells(cells, 1) >= h.columns.size()) return row.error();
      out.partial = cut_cells(lines[li], cells);
      out.notes.push_back(fmt::format("{}: line {}: the paste ends inside row {} ({} of its {} link cells kept)", file,
                                      lines[li].number, h.columns[r], out.partial.size(), h.columns.size()));
      break;
    }
    // The last line of a paste cut mid-value ("0-23,4"): its last affinity value may be partial.
    const auto& raw = lines[li].text;
    if (is_last_text(lines, li) && !row.value().extras.empty() && !raw.empty() && raw.back() != ' ' && raw.back() != '\t' &&
        text_ends_without_newline) {
      row.value().last_value_cut = true;
      out.notes.push_back(fmt::format("{}: line {}: the paste ends inside row {}; its last value {} may be cut and is not used",
                                      file, lines[li].number, h.columns[r], quoted(row.value().extras.back())));
    }
    rows.push_back(std::move(row).value());
  }
  out.complete = rows.size();
  // A further device row means the header and the rows disagree (a GPU5 row under GPU0..GPU3).
  const size_t after = header_at + 1 + h.columns.size();
  if (out.complete == h.columns.size() && after < lines.size()) {
    const auto cells = split_ws(lines[after].text);
    int k = -1;
    if (cells.size() > 1 && (is_gpu_label(cells[0], k) || (starts_with(cells[0], "NIC") && parse_int(cells[0].substr(3), k)))) {
      return line_error(file, lines[after].number,
                        fmt::format("found a row for {}, but the header (line {}) has {}", cells[0], h.line, describe_columns(h)));
    }
  }
  for (size_t a = 0; a < rows.size(); ++a) {
    for (size_t b = a + 1; b < rows.size(); ++b) {
      if (rows[a].cells[b] == rows[b].cells[a]) continue;
      return line_error(file, rows[b].line,
                        fmt::format("{}-{} is {} but {}-{} is {} (line {}); the matrix must be symmetric", h.columns[b], h.columns[a],
                                    core::to_string(rows[b].cells[a]), h.columns[a], h.columns[b],
                                    core::to_string(rows[a].cells[b]), rows[a].line));
    }
  }
  if (out.glued) out.notes.push_back(fmt::format("{}: some cells had no space between them and were split", file));
  return out;
}

// "NIC0: mlx5_0" lines of the NIC Legend, after the matrix.
std::map<std::string, std::string> read_nic_legend(const std::vector<Line>& lines, size_t from) {
  std::map<std::string, std::string> legend;
  for (size_t i = from; i < lines.size(); ++i) {
    const auto cells = split_ws(lines[i].text);
    int k = -1;
    if (cells.size() != 2 || cells[0].size() < 5 || cells[0].back() != ':') continue;
    const std::string label = cells[0].substr(0, cells[0].size() - 1);
    if (starts_with(label, "NIC") && parse_int(std::string_view(label).substr(3), k)) legend.emplace(label, cells[1]);
  }
  return legend;
}

template <class T>
core::Reading<T> absent_for_value(const std::string& value) {
  if (value == "N/A") return core::Reading<T>::absent(kPrintedNa);
  if (value == "(cut)") return core::Reading<T>::absent("the paste ends inside this value");
  return core::Reading<T>::absent("nvidia-smi printed " + quoted(value));
}

// The link between GPUs a and b from the rows read (either direction, or the cut row's cells).
std::optional<core::Link> known_link(const Rows& r, size_t a, size_t b) {
  if (a < r.complete) return r.rows[a].cells[b];
  if (b < r.complete) return r.rows[b].cells[a];
  if (a == r.complete && b < r.partial.size()) return r.partial[b];
  if (b == r.complete && a < r.partial.size()) return r.partial[a];
  return std::nullopt;
}

// "GPU1..GPU2": the GPUs without a complete row. The header names them but the paste does not
// show them (Gpu::unseen): the inventory rule warns gpu_missing and the verdict cannot pass.
std::string unseen_rows(const Header& h, const Rows& r) {
  const auto first = static_cast<int>(r.complete);
  const int last = h.gpu_count - 1;
  return first == last ? fmt::format("GPU{}", first) : fmt::format("GPU{}..GPU{}", first, last);
}

void fill_gpus(core::Machine& m, const Header& h, const Rows& r, const std::string& file) {
  int cpu_col = -1, numa_col = -1;
  for (size_t i = 0; i < h.extras.size(); ++i) {
    if (h.extras[i] == Extra::cpu_affinity) cpu_col = static_cast<int>(i);
    if (h.extras[i] == Extra::numa_affinity) numa_col = static_cast<int>(i);
  }
  const auto cut_reason = fmt::format("the paste stops before the end of row GPU{}", r.complete);
  std::vector<std::string> several_nodes;
  core::LinkMatrix links(h.gpu_count);
  std::vector<std::string> unknown_pairs;
  for (int k = 0; k < h.gpu_count; ++k) {
    for (int j = 0; j < h.gpu_count; ++j) {
      if (j == k) {
        links.set(k, j, core::Link{core::LinkKind::self, 0});
        continue;
      }
      const auto link = known_link(r, static_cast<size_t>(k), static_cast<size_t>(j));
      if (link) links.set(k, j, *link);
      else if (k < j) unknown_pairs.push_back(fmt::format("GPU{}-GPU{}", k, j));
    }
    auto g = unknown_gpu(k, kNotInTopo);
    if (static_cast<size_t>(k) >= r.complete) {
      g.numa_node = core::Absent{cut_reason};
      g.cpu_affinity = core::Absent{cut_reason};
      g.unseen = true;
      m.gpus.push_back(std::move(g));
      continue;
    }
    auto row = r.rows[static_cast<size_t>(k)];
    if (row.last_value_cut) row.extras.back() = "(cut)";
    if (numa_col < 0) {
      g.numa_node = core::Absent{"no NUMA Affinity column in this nvidia-smi topo -m (older driver)"};
    } else {
      const auto& v = row.extras[static_cast<size_t>(numa_col)];
      const auto nodes = parse_id_list(v);
      g.numa_node = nodes ? core::Reading<int>(nodes->front()) : absent_for_value<int>(v);
      // Grace systems (GB200, GH200) expose GPU memory as NUMA nodes of its own, so the affinity
      // lists the CPU node first, then memory-only nodes ("0,3-9,11-17"): the CPU node is the first.
      if (nodes && nodes->size() > 1) {
        several_nodes.push_back(fmt::format("GPU{} {}", k, quoted(v)));
      }
    }
    if (cpu_col < 0) {
      g.cpu_affinity = core::Absent{"no CPU Affinity column in this nvidia-smi topo -m"};
    } else {
      const auto& v = row.extras[static_cast<size_t>(cpu_col)];
      g.cpu_affinity = v == "N/A" || v == "(cut)" ? absent_for_value<std::string>(v) : core::Reading<std::string>(v);
    }
    m.gpus.push_back(std::move(g));
  }
  if (!several_nodes.empty()) {
    m.notes.push_back(fmt::format("NUMA Affinity lists several nodes ({}): GPU memory shown as NUMA nodes of its own (Grace "
                                  "systems); the first node of each list is taken as the GPU's CPU-side node",
                                  fmt::join(several_nodes, ", ")));
  }
  // The word "truncated" makes the note one the inventory rule quotes for the GPUs not seen.
  const auto truncated = fmt::format("{}: nvidia-smi topo -m is truncated: {} of {} GPU rows complete ({} without a complete row)",
                                     file, r.complete, h.gpu_count, unseen_rows(h, r));
  if (unknown_pairs.empty()) {
    m.links = std::move(links);
    if (r.complete < static_cast<size_t>(h.gpu_count)) {
      m.notes.push_back(truncated + "; the rows shown give the link of every GPU pair, not the CPU and NUMA affinity of "
                                    "the GPUs after them");
    }
    return;
  }
  const auto shown = unknown_pairs.size() > 6 ? fmt::format("{} pairs such as {}", unknown_pairs.size(), unknown_pairs.front())
                                              : fmt::format("{}", fmt::join(unknown_pairs, ", "));
  // Every pair shown is NVk and a GPU with NVk to all n-1 peers would need k*(n-1) NVLinks, more
  // than the 18 any GPU has: the GPUs meet in an NVSwitch, which gives the pairs not shown NVk too.
  std::optional<int> k;
  bool uniform = true;
  for (int a = 0; a < h.gpu_count && uniform; ++a) {
    for (int b = a + 1; b < h.gpu_count && uniform; ++b) {
      const auto link = known_link(r, static_cast<size_t>(a), static_cast<size_t>(b));
      if (!link) continue;
      if (!link->is_nvlink() || (k && *k != link->nvlink_count)) uniform = false;
      k = link->nvlink_count;
    }
  }
  if (uniform && k && *k * (h.gpu_count - 1) > kMaxNvlinksPerGpu) {
    for (int a = 0; a < h.gpu_count; ++a) {
      for (int b = 0; b < h.gpu_count; ++b) {
        if (a != b && !known_link(r, static_cast<size_t>(a), static_cast<size_t>(b))) links.set(a, b, core::Link{core::LinkKind::nvlink, *k});
      }
    }
    m.links = std::move(links);
    m.notes.push_back(fmt::format("{}; the links of {} are not shown and are taken as NV{}: every pair shown is NV{}, and "
                                  "NV{} to {} peers ({} links) is more than a GPU has ({}), so the GPUs meet in an NVSwitch",
                                  truncated, shown, *k, *k, *k, h.gpu_count - 1, *k * (h.gpu_count - 1), kMaxNvlinksPerGpu));
    return;
  }
  m.links = core::Absent{fmt::format("{}: the links of {} are not in it", cut_reason, shown)};
  m.notes.push_back(fmt::format("{}; links of {} unknown, so the interconnect cannot be classified from it", truncated, shown));
}

void fill_numa_nodes(core::Machine& m) {
  std::map<int, core::Reading<std::string>> nodes;
  for (const auto& g : m.gpus) {
    if (!g.numa_node) continue;
    const auto [it, inserted] = nodes.emplace(*g.numa_node, g.cpu_affinity);
    if (!inserted && it->second.known() && g.cpu_affinity.known() && *it->second != *g.cpu_affinity) {
      it->second = core::Absent{fmt::format("GPUs on NUMA node {} show different CPU affinities", it->first)};
    }
  }
  if (nodes.empty()) {
    m.numa_nodes = core::Absent{m.gpus.front().numa_node.reason()};
    return;
  }
  std::vector<core::NumaNode> out;
  for (const auto& [id, cpus] : nodes) out.push_back(core::NumaNode{id, cpus});
  m.numa_nodes = std::move(out);
}

void fill_nics(core::Machine& m, const Header& h, const Rows& r, const std::map<std::string, std::string>& legend) {
  if (h.columns.size() == static_cast<size_t>(h.gpu_count)) {
    m.nics = core::Absent{"no NIC columns in this nvidia-smi topo -m"};
    return;
  }
  std::vector<core::Nic> nics;
  for (size_t c = static_cast<size_t>(h.gpu_count); c < h.columns.size(); ++c) {
    core::Nic nic;
    nic.label = h.columns[c];
    const auto it = legend.find(nic.label);
    if (it != legend.end()) {
      nic.name = it->second;
    } else if (starts_with(nic.label, "NIC")) {
      nic.name = core::Absent{nic.label + " is not in the NIC Legend"};
    } else {
      nic.name = nic.label;  // old drivers head the column with the device name itself
    }
    const core::Absent a{kNotInTopo};
    nic.rate_gbit_s = a;
    nic.state = a;
    nic.link_layer = a;
    nic.pci_bus_id = a;
    nic.numa_node = a;
    std::vector<core::Link> proximity;
    for (size_t k = 0; k < static_cast<size_t>(h.gpu_count) && k < r.complete; ++k) proximity.push_back(r.rows[k].cells[c]);
    if (proximity.size() == static_cast<size_t>(h.gpu_count)) nic.gpu_proximity = std::move(proximity);
    else nic.gpu_proximity = core::Absent{fmt::format("the paste stops before the end of row GPU{}", r.complete)};
    nics.push_back(std::move(nic));
  }
  m.nics = std::move(nics);
}

core::Result<core::Machine> parse(std::string_view text, const std::string& file) {
  auto lines = split_lines(text);
  for (auto& l : lines) l.text = strip_escape_residue(l.text);
  size_t header_at = lines.size();
  for (size_t i = 0; i < lines.size(); ++i) {
    if (is_topo_header(lines[i].text)) {
      header_at = i;
      break;
    }
  }
  if (header_at == lines.size()) {
    const int last = lines.empty() ? 1 : lines.back().number;
    return line_error(file, last,
                      fmt::format("{} without a nvidia-smi topo -m header (a line starting with GPU0, then GPU1 or CPU Affinity)",
                                  lines.empty() ? "empty input" : "reached the end of the input"));
  }
  auto header = parse_header(lines[header_at], file);
  if (!header) return header.error();
  const auto& h = header.value();
  auto rows = parse_rows(lines, header_at, h, file, !text.empty() && text.back() != '\n');
  if (!rows) return rows.error();
  if (rows.value().complete == 0) {
    return line_error(file, lines[header_at].number + 1, fmt::format("expected row {} of the matrix after the header", h.columns[0]));
  }

  core::Machine m;
  m.source = fmt::format("nvidia-smi topo -m ({})", file);
  m.hostname = core::Absent{kNotInTopo};
  m.driver_version = core::Absent{kNotInTopo};
  m.cuda_version = core::Absent{kNotInTopo};
  m.attached_gpus = h.gpu_count;
  m.nvswitch_present = core::Absent{"topo -m does not show NVSwitches"};
  m.notes = rows.value().notes;
  fill_gpus(m, h, rows.value(), file);
  fill_numa_nodes(m);
  fill_nics(m, h, rows.value(), read_nic_legend(lines, header_at + 1 + h.columns.size()));
  if (m.links.known() && looks_like_topo_mp(lines, header_at + 1)) {
    bool nvlink = false;
    for (int a = 0; a < m.links->size(); ++a) {
      for (int b = 0; b < m.links->size(); ++b) nvlink = nvlink || m.links->at(a, b).is_nvlink();
    }
    if (!nvlink) {
      m.source = fmt::format("nvidia-smi topo -mp ({})", file);
      m.links = core::Absent{"nvidia-smi topo -mp shows PCIe paths only: it cannot show NVLink"};
      m.notes.push_back(fmt::format("{} is nvidia-smi topo -mp (PCIe paths only): NVLink cannot be seen in it, so the "
                                    "interconnect is not classified; give nvidia-smi topo -m or nvlink -s",
                                    file));
    }
  }
  return m;
}

}  // namespace

core::Result<core::Machine> parse_topo_matrix(std::string_view text, const std::string& file_name) {
  try {
    return parse(text, file_name);
  } catch (const std::exception& e) {
    return core::internal_error(fmt::format("{}: parsing nvidia-smi topo -m failed: {}", file_name, e.what()));
  }
}

}  // namespace gpuvet::parsers
