// Parser of `nvidia-smi topo -p2p` capability matrices (see topo_p2p_parser.hpp).
#include "parsers/topo_p2p_parser.hpp"

#include <exception>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "parsers/topo_common.hpp"

namespace gpuvet::parsers {

namespace {

constexpr const char* kNotInP2p = "not in nvidia-smi topo -p2p";

struct Status {
  std::string_view word;
  std::string_view meaning;  // as the nvidia-smi legend words it
};
constexpr Status kStatuses[] = {{"OK", "Status Ok"},          {"NS", "Not supported"},
                                {"CNS", "Chipset not supported"}, {"GNS", "GPU not supported"},
                                {"TNS", "Topology not supported"}, {"DR", "Disabled by regkey"},
                                {"U", "Unknown"}};

const Status* status_of(std::string_view cell) {
  for (const auto& s : kStatuses) {
    if (s.word == cell) return &s;
  }
  return nullptr;
}

bool gpu_label(std::string_view cell, int& k) { return starts_with(cell, "GPU") && parse_int(cell.substr(3), k) && k >= 0; }

// Header cells GPU0..GPUn-1 (n >= 2) and nothing else; 0 when the line is not such a header.
int header_gpus(std::string_view line) {
  const auto cells = split_ws(strip_escape_residue(line));
  int n = 0;
  for (const auto& c : cells) {
    int k = -1;
    if (!gpu_label(c, k) || k != n) return 0;
    ++n;
  }
  return n >= 2 ? n : 0;
}

// What the command line asked for, when the paste has it: "-p2p rw" -> "read and write".
std::string capability_asked(std::string_view text) {
  const auto at = text.find("-p2p");
  if (at == std::string_view::npos) return {};
  const auto cells = split_ws(text.substr(at + 4, text.find('\n', at) - at - 4));
  if (cells.empty()) return {};
  std::vector<std::string> words;
  for (char c : cells[0]) {
    switch (c) {
      case 'r': words.emplace_back("read"); break;
      case 'w': words.emplace_back("write"); break;
      case 'n': words.emplace_back("NVLink"); break;
      case 'a': words.emplace_back("atomics"); break;
      case 'p': words.emplace_back("prop"); break;
      default: return {};
    }
  }
  return fmt::format("{}", fmt::join(words, " and "));
}

core::Result<TopoP2p> parse(std::string_view text, const std::string& file) {
  const auto lines = split_lines(text);
  size_t at = lines.size();
  int n = 0;
  for (size_t i = 0; i < lines.size(); ++i) {
    if ((n = header_gpus(lines[i].text)) > 0) {
      at = i;
      break;
    }
  }
  if (at == lines.size()) {
    return line_error(file, lines.empty() ? 1 : lines.back().number, "no nvidia-smi topo -p2p header (GPU0 GPU1 ...)");
  }
  std::vector<std::vector<bool>> access(static_cast<size_t>(n), std::vector<bool>(static_cast<size_t>(n), false));
  std::vector<std::string> not_ok;
  int rows = 0;
  for (int r = 0; r < n; ++r) {
    const size_t li = at + 1 + static_cast<size_t>(r);
    if (li >= lines.size() || trim(lines[li].text).empty()) break;
    const auto cells = split_ws(lines[li].text);
    int k = -1;
    if (!gpu_label(cells[0], k) || k != r) {
      return line_error(file, lines[li].number, fmt::format("expected row GPU{} of the topo -p2p matrix, found {}", r, quoted(trim(lines[li].text))));
    }
    if (cells.size() != static_cast<size_t>(n) + 1) {
      return line_error(file, lines[li].number, fmt::format("expected {} cells for GPU{}, found {}", n, r, cells.size() - 1));
    }
    for (int c = 0; c < n; ++c) {
      const auto& cell = cells[static_cast<size_t>(c) + 1];
      if (c == r) {
        if (cell != "X") return line_error(file, lines[li].number, fmt::format("expected X on the diagonal of row GPU{}, found {}", r, quoted(cell)));
        access[static_cast<size_t>(r)][static_cast<size_t>(c)] = true;
        continue;
      }
      const Status* s = status_of(cell);
      if (s == nullptr) {
        return line_error(file, lines[li].number,
                          fmt::format("unknown P2P status {} in column GPU{} of row GPU{} (expected OK, NS, CNS, GNS, TNS, DR or U)",
                                      quoted(cell), c, r));
      }
      access[static_cast<size_t>(r)][static_cast<size_t>(c)] = s->word == "OK";
      if (s->word != "OK" && c > r) not_ok.push_back(fmt::format("GPU{}-GPU{}: {} ({})", r, c, s->word, s->meaning));
    }
    ++rows;
  }
  if (rows < n - 1) {
    return line_error(file, lines[at].number + rows + 1,
                      fmt::format("the topo -p2p matrix has {} of its {} rows; pairs below are unknown", rows, n));
  }
  TopoP2p out;
  auto& m = out.machine;
  m.source = fmt::format("nvidia-smi topo -p2p ({})", file);
  m.hostname = core::Absent{kNotInP2p};
  m.driver_version = core::Absent{kNotInP2p};
  m.cuda_version = core::Absent{kNotInP2p};
  m.attached_gpus = n;
  m.links = core::Absent{"nvidia-smi topo -p2p shows P2P capability, not the links between the GPUs"};
  m.nvswitch_present = core::Absent{kNotInP2p};
  m.nics = core::Absent{kNotInP2p};
  m.numa_nodes = core::Absent{kNotInP2p};
  for (int k = 0; k < n; ++k) m.gpus.push_back(unknown_gpu(k, kNotInP2p));
  const auto asked = capability_asked(text);
  m.notes.push_back(fmt::format("{} is nvidia-smi topo -p2p ({}): it shows whether each GPU pair may use P2P, not how the GPUs "
                                "are linked; give nvidia-smi topo -m for the links",
                                file, asked.empty() ? "the capability asked for is not in the paste" : "P2P " + asked));
  auto& run = out.access;
  run.tool = "nvidia-smi topo -p2p";
  run.source = m.source;
  run.tool_version = core::Absent{kNotInP2p};
  run.driver_version = core::Absent{kNotInP2p};
  run.p2p_access = std::move(access);
  if (!not_ok.empty()) run.notes.push_back(fmt::format("P2P not available: {}", fmt::join(not_ok, "; ")));
  if (rows == n - 1) m.notes.push_back(fmt::format("{}: the topo -p2p matrix stops before row GPU{}; its pairs are read from the other rows", file, n - 1));
  return out;
}

}  // namespace

bool looks_like_topo_p2p(const std::vector<Line>& lines) {
  for (size_t i = 0; i + 1 < lines.size(); ++i) {
    const int n = header_gpus(lines[i].text);
    if (n == 0) continue;
    const auto cells = split_ws(lines[i + 1].text);
    if (cells.size() < 3 || cells[0] != "GPU0") return false;
    bool any_status = false;
    for (size_t c = 1; c < cells.size(); ++c) {
      if (cells[c] == "X") continue;
      if (status_of(cells[c]) == nullptr) return false;
      any_status = true;
    }
    return any_status;
  }
  return false;
}

core::Result<TopoP2p> parse_topo_p2p(std::string_view text, const std::string& file_name) {
  try {
    return parse(text, file_name);
  } catch (const std::exception& e) {
    return core::internal_error(fmt::format("{}: parsing nvidia-smi topo -p2p failed: {}", file_name, e.what()));
  }
}

}  // namespace gpuvet::parsers
