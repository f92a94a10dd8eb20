// Parser of `nvidia-smi nvlink -s` output (and the `nvlink -gt d` counter view): GPU blocks,
// one "Link L: ..." line per port, NVML messages and an author's "..." elision line.
#include "parsers/nvlink_status_parser.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdint>
#include <exception>
#include <optional>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "parsers/nvlink_link_values.hpp"
#include "parsers/nvlink_status_cut.hpp"
#include "parsers/text_lines.hpp"
#include "parsers/topo_common.hpp"

namespace gpuvet::parsers {

namespace {

constexpr const char* kNotInNvlink = "not in nvidia-smi nvlink -s";

struct Port {
  core::NvLinkPort port;
  bool counters = false;          // seen as a "Data Tx/Rx" counter line (nvlink -gt d)
  std::uint64_t traffic_kib = 0;  // Tx + Rx as printed
  bool detail = false;            // seen only in an error-counter, remote-device or capability line
  std::vector<core::NvLinkCounter> errors;  // nvlink -e / -ec
  int remote_link = -1;                     // nvlink -R: the remote device's port number
};

struct Block {
  int line = 0;
  core::Gpu gpu;
  std::vector<Port> ports;
  bool all_inactive = false;      // NVML said all links are inactive
  std::string nvml_message;       // any other NVML: line under this GPU
  bool header_cut = false;        // the input ends inside this GPU's header line
  std::string info;               // nvlink -info values ("NVLE: disabled, MSE: 14:4:0, ...")
};

// Which nvlink views the Link lines came from, for the source label and notes.
struct Views {
  bool errors = false;       // -e / -ec
  bool remote = false;       // -R
  bool capabilities = false; // -c
  int other_values = 0;      // values read but not judged
  bool info = false;         // -info: NVLE state and NVLink firmware versions, no links
};


struct Elision {
  int line = 0;
  int previous_gpu = -1;  // index of the GPU block above the "..." line, -1 when none
};

bool is_elision(std::string_view text) {
  if (text == "\xe2\x80\xa6") return true;  // U+2026 HORIZONTAL ELLIPSIS
  return text.size() >= 3 && std::all_of(text.begin(), text.end(), [](char c) { return c == '.'; });
}

bool is_link_line(std::string_view text) { return starts_with(text, "Link ") && text.find(':') != std::string_view::npos; }

// A line of nvidia-smi nvlink -info under a GPU: "NVLE: disabled", "Firmware Version:",
// "MSE: 14:4:0", "NETIR UPHY: 7:0:0".
bool is_info_line(std::string_view t, bool info_seen) {
  if (starts_with(t, "NVLE:") || starts_with(t, "Firmware Version")) return true;
  if (!info_seen || is_link_line(t)) return false;
  const auto colon = t.find(':');
  return colon != std::string_view::npos && colon > 0 && std::isupper(static_cast<unsigned char>(t[0]));
}

// A header is cut when the input ends inside it: "GPU 7: NVIDIA H8" or "... (UUID: GPU-47". Its
// name (without "(UUID:") and UUID may be partial, so both stay unknown rather than a false
// mixed_inventory.
Block new_block(int line, int index, std::string_view rest, bool last_line) {
  Block b;
  b.line = line;
  b.gpu = unknown_gpu(index, kNotInNvlink);
  const auto uuid_at = rest.find("(UUID:");
  const auto name = trim(rest.substr(0, uuid_at));
  b.header_cut = last_line && (rest.empty() || rest.back() != ')');
  if (b.header_cut) {
    const auto why = fmt::format("the input ends inside the header line of GPU {} (line {})", index, line);
    if (uuid_at == std::string_view::npos) b.gpu.name = core::Absent{why};
    else if (!name.empty()) b.gpu.name = std::string(name);
    b.gpu.uuid = core::Absent{why};
    return b;
  }
  if (!name.empty()) b.gpu.name = std::string(name);
  if (uuid_at != std::string_view::npos) {
    auto uuid = rest.substr(uuid_at + 6);
    uuid = trim(uuid.substr(0, uuid.find(')')));
    if (!uuid.empty()) b.gpu.uuid = std::string(uuid);
  }
  return b;
}

Port& port_for(Block& b, int link) {
  for (auto& p : b.ports) {
    if (p.port.link == link) return p;
  }
  Port p;
  p.port.link = link;
  p.port.version = core::Absent{kNotInNvlink};
  p.port.remote = core::Absent{kNotInNvlink};
  p.port.remote_pci_bus_id = core::Absent{kNotInNvlink};
  b.ports.push_back(std::move(p));
  return b.ports.back();
}

bool has_port(const Block& b, int link) {
  return std::any_of(b.ports.begin(), b.ports.end(), [link](const Port& p) { return p.port.link == link; });
}

// One "Link L: ..." line of a GPU block.
std::optional<core::Error> read_link(const Line& line, std::string_view text, Block& b, const std::string& file, Views& views) {
  const auto colon = text.find(':');
  int link = -1;
  // nvlink -c: "Link 0, P2P is supported: true": the port exists; its state is not shown.
  const auto comma = text.find(',');
  if (comma != std::string_view::npos && comma < colon && parse_int(trim(text.substr(5, comma - 5)), link) && link >= 0) {
    port_for(b, link).detail = true;
    views.capabilities = true;
    return std::nullopt;
  }
  if (!parse_int(trim(text.substr(5, colon - 5)), link) || link < 0) {
    return line_error(file, line.number, fmt::format("expected \"Link <number>: ...\", found {}", quoted(text)));
  }
  const auto rest = trim(text.substr(colon + 1));
  const auto gpu = b.gpu.index;
  for (std::string_view kind : {"Data Tx:", "Data Rx:", "Raw Tx:", "Raw Rx:"}) {
    if (!starts_with(rest, kind)) continue;
    const auto cells = split_ws(rest.substr(kind.size()));
    std::uint64_t kib = 0;
    const auto* first = cells.empty() ? nullptr : cells[0].data();
    const auto [ptr, ec] = first ? std::from_chars(first, first + cells[0].size(), kib) : std::from_chars_result{nullptr, std::errc::invalid_argument};
    if (ec != std::errc() || ptr != first + cells[0].size()) {
      return line_error(file, line.number, fmt::format("expected a counter after {} on Link {} of GPU {}, found {}", kind, link, gpu, quoted(rest)));
    }
    auto& p = port_for(b, link);
    p.counters = true;
    p.traffic_kib += kib;
    return std::nullopt;
  }
  if (const auto v = read_link_value(rest)) {
    auto& p = port_for(b, link);
    p.detail = p.detail || !p.port.active.known();
    if (v->kind == LinkValueKind::counter) {
      views.errors = true;
      p.errors.push_back(core::NvLinkCounter{v->name, v->value});
    } else if (v->kind == LinkValueKind::remote) {
      views.remote = true;
      p.port.active = true;  // nvlink -R lists a remote end only for a link that is up
      p.port.speed_gbps = core::Absent{"nvidia-smi nvlink -R does not show link speed"};
      p.port.remote_pci_bus_id = v->remote_bus_id;
      p.remote_link = v->remote_link;
      p.port.remote = core::Absent{"nvidia-smi nvlink -R names the remote PCI device, not its kind"};
    } else {
      ++views.other_values;
    }
    return std::nullopt;
  }
  if (has_port(b, link)) return line_error(file, line.number, fmt::format("Link {} of GPU {} appears twice", link, gpu));
  if (rest == "<inactive>") {
    auto& p = port_for(b, link);
    p.port.active = false;
    p.port.speed_gbps = core::Absent{"link inactive"};
    return std::nullopt;
  }
  if (rest.size() > 4 && rest.substr(rest.size() - 4) == "GB/s") {
    const auto number = trim(rest.substr(0, rest.size() - 4));
    double gbps = 0;
    const auto [ptr, ec] = std::from_chars(number.data(), number.data() + number.size(), gbps);
    if (ec == std::errc() && ptr == number.data() + number.size() && gbps >= 0) {
      auto& p = port_for(b, link);
      p.port.active = true;
      p.port.speed_gbps = gbps;
      return std::nullopt;
    }
  }
  return line_error(file, line.number,
                    fmt::format("expected \"<speed> GB/s\" or \"<inactive>\" after Link {} of GPU {}, found {}", link, gpu, quoted(rest)));
}

bool gpu_or_link_follows(const std::vector<Line>& lines, size_t from) {
  for (size_t i = from; i < lines.size(); ++i) {
    int index = -1;
    std::string rest;
    if (is_nvlink_gpu_line(lines[i].text, index, rest) || is_link_line(trim(lines[i].text))) return true;
  }
  return false;
}

std::string elision_note(const Elision& e, const std::vector<Block>& blocks) {
  int next = -1;
  for (const auto& b : blocks) {
    if (b.line > e.line) {
      next = b.gpu.index;
      break;
    }
  }
  const int first = e.previous_gpu + 1;
  const auto where = fmt::format("(\"...\" on line {})", e.line);
  if (next < 0) return fmt::format("GPUs after GPU {} elided in input {}", e.previous_gpu, where);
  if (next - 1 == first) return fmt::format("GPU {} elided in input {}", first, where);
  if (next - 1 > first) return fmt::format("GPUs {}-{} elided in input {}", first, next - 1, where);
  return fmt::format("input shortened by its author {}", where);
}

// nvlink -R: a remote device with a port numbered 18 or more is not a GPU (GPUs have at most
// 18 NVLinks, NVLink 4 and 5); it is an NVSwitch (64 ports on NVLink 4 switches).
void mark_switch_ports(std::vector<Block>& blocks) {
  std::vector<std::string> switches;
  for (auto& b : blocks) {
    for (auto& p : b.ports) {
      if (!p.port.remote_pci_bus_id.known()) continue;
      if (std::find(switches.begin(), switches.end(), *p.port.remote_pci_bus_id) != switches.end()) continue;
      if (p.remote_link >= 18) switches.push_back(*p.port.remote_pci_bus_id);
    }
  }
  for (auto& b : blocks) {
    for (auto& p : b.ports) {
      if (p.port.remote_pci_bus_id.known() &&
          std::find(switches.begin(), switches.end(), *p.port.remote_pci_bus_id) != switches.end()) {
        p.port.remote = core::NvLinkRemote::nvswitch;
      }
    }
  }
}

void finish_block(Block& b, const std::string& file, core::Machine& m, const Views& views) {
  const auto gpu = b.gpu.index;
  if (!b.ports.empty()) {
    std::sort(b.ports.begin(), b.ports.end(), [](const Port& x, const Port& y) { return x.port.link < y.port.link; });
    std::vector<core::NvLinkPort> ports;
    for (auto& p : b.ports) {
      if (p.detail && !p.port.active.known()) {
        p.port.active = core::Absent{"this nvidia-smi nvlink view does not show link state"};
        p.port.speed_gbps = core::Absent{"this nvidia-smi nvlink view does not show link speed"};
      }
      if (views.errors) p.port.error_counters = p.errors;
      else p.port.error_counters = core::Absent{"no nvidia-smi nvlink -e in this input"};
      if (p.counters) {
        if (p.traffic_kib > 0) p.port.active = true;
        else p.port.active = core::Absent{"no traffic counted; nvidia-smi nvlink -gt d does not show link state"};
        p.port.speed_gbps = core::Absent{"nvidia-smi nvlink -gt d does not show link speed"};
      }
      ports.push_back(p.port);
    }
    b.gpu.nvlinks = std::move(ports);
  } else if (b.all_inactive) {
    b.gpu.nvlinks = std::vector<core::NvLinkPort>{};
    m.notes.push_back(fmt::format("GPU {}: all NVLinks inactive (nvidia-smi nvlink -s in {}: NVML could not retrieve NVLink information)", gpu, file));
  } else if (!b.nvml_message.empty()) {
    b.gpu.nvlinks = core::Absent{b.nvml_message};
  } else {
    b.gpu.nvlinks = core::Absent{"no Link lines under this GPU in nvidia-smi nvlink -s"};
  }
}

std::string cut_note(const std::string& file, int line, std::string_view t, const Block& b) {
  return fmt::format("{}: line {}: the input ends in a cut line ({}) under GPU {}", file, line, quoted(t), b.gpu.index);
}

// Truncation the lines themselves do not show: the last GPU lists fewer links than the one
// of the same model (nvlink -s prints every port, <inactive> ones too), or none at all. The
// missing ports are added with an unknown state, so they are neither up nor down.
void check_last_block(std::vector<Block>& blocks, const std::string& file, int last_line, std::vector<std::string>& notes) {
  if (blocks.size() < 2) return;
  Block& last = blocks.back();
  const Block* fuller = nullptr;
  for (const auto& b : blocks) {
    if (&b == &last || (b.gpu.name.known() && last.gpu.name.known() && *b.gpu.name != *last.gpu.name)) continue;
    if (fuller == nullptr || b.ports.size() > fuller->ports.size()) fuller = &b;
  }
  if (fuller == nullptr || last.all_inactive || !last.nvml_message.empty() || last.ports.size() >= fuller->ports.size()) return;
  const auto why = fmt::format("not in the input: it ends (line {}) before this Link line", last_line);
  std::vector<int> missing;
  for (const auto& p : fuller->ports) {
    if (has_port(last, p.port.link)) continue;
    missing.push_back(p.port.link);
    auto& q = port_for(last, p.port.link);
    q.port.active = core::Absent{why};
    q.port.speed_gbps = core::Absent{why};
  }
  notes.push_back(fmt::format("{}: GPU {} lists {} of the {} NVLink ports GPU {} lists: the input looks cut after line {}; "
                              "links {} of GPU {} are unknown, and GPUs after it may be missing",
                              file, last.gpu.index, fuller->ports.size() - missing.size(), fuller->ports.size(),
                              fuller->gpu.index, last_line, fmt::join(missing, ", "), last.gpu.index));
}

core::Result<core::Machine> parse(std::string_view text, const std::string& file) {
  const auto lines = split_lines(text);
  std::vector<Block> blocks;
  std::vector<Elision> elisions;
  std::vector<std::string> cut_notes;
  Views views;
  size_t last = lines.size();
  while (last > 0 && trim(lines[last - 1].text).empty()) --last;
  for (size_t i = 0; i < lines.size(); ++i) {
    const auto& line = lines[i];
    const auto t = trim(line.text);
    if (t.empty()) continue;
    int index = -1;
    std::string rest;
    if (is_nvlink_gpu_line(t, index, rest)) {
      if (!blocks.empty() && index <= blocks.back().gpu.index) {
        return line_error(file, line.number, fmt::format("GPU {} after GPU {}; nvidia-smi lists GPUs in index order", index, blocks.back().gpu.index));
      }
      blocks.push_back(new_block(line.number, index, rest, i + 1 == last));
      if (blocks.back().header_cut) {
        cut_notes.push_back(fmt::format("{}: line {}: the input ends inside the header of GPU {} ({}); its name and UUID are unknown",
                                        file, line.number, index, quoted(t)));
      }
    } else if (starts_with(t, "Links ") && !blocks.empty()) {
      // An author's summary of several links ("Links 0-2, 4-5: Replay/Recovery/CRC Errors: 0").
      cut_notes.push_back(fmt::format("{}: line {}: {} is a summary written by the author, not nvidia-smi output; those links are "
                                      "not read",
                                      file, line.number, quoted(t)));
    } else if (is_elision(t)) {
      elisions.push_back(Elision{line.number, blocks.empty() ? -1 : blocks.back().gpu.index});
    } else if (blocks.empty()) {
      if (is_link_line(t)) return line_error(file, line.number, "\"Link\" line before any \"GPU N: NAME (UUID: ...)\" line");
      continue;  // text before the output (a prompt line)
    } else if (is_link_line(t)) {
      if (auto err = read_link(line, t, blocks.back(), file, views)) {
        const auto value = trim(t.substr(t.find(':') + 1));
        const bool cut = value_looks_cut(value) || starts_with(value, "Remote Device") || starts_with("Remote Device", value);
        if (i + 1 != last || !cut) return *err;
        cut_notes.push_back(cut_note(file, line.number, t, blocks.back()));
      }
    } else if (starts_with(t, "NVML:")) {
      std::string lower(t);
      std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
      if (lower.find("inactive") != std::string::npos) blocks.back().all_inactive = true;
      else blocks.back().nvml_message = "nvidia-smi printed " + quoted(t);
    } else if (is_info_line(t, views.info)) {
      views.info = true;
      auto& b = blocks.back();
      if (!starts_with(t, "Firmware Version")) b.info += (b.info.empty() ? "" : ", ") + std::string(t);
    } else if (i + 1 == last && looks_cut(t)) {
      cut_notes.push_back(cut_note(file, line.number, t, blocks.back()));
    } else if (gpu_or_link_follows(lines, i + 1)) {
      return line_error(file, line.number, fmt::format("expected \"Link L: ...\", \"GPU N: ...\" or \"NVML: ...\", found {}", quoted(t)));
    } else {
      break;  // text after the output
    }
  }
  if (blocks.empty()) {
    return line_error(file, lines.empty() ? 1 : lines.back().number,
                      "reached the end of the input without a \"GPU N: NAME (UUID: ...)\" line of nvidia-smi nvlink -s");
  }
  const bool counters = std::any_of(blocks.begin(), blocks.end(), [](const Block& b) {
    return std::any_of(b.ports.begin(), b.ports.end(), [](const Port& p) { return p.counters; });
  });
  core::Machine m;
  const char* view = views.errors ? "-e" : views.remote ? "-R" : views.capabilities ? "-c" : views.info ? "-info" : counters ? "-gt d" : "-s";
  m.source = fmt::format("nvidia-smi nvlink {} ({})", view, file);
  m.hostname = core::Absent{kNotInNvlink};
  m.driver_version = core::Absent{kNotInNvlink};
  m.cuda_version = core::Absent{kNotInNvlink};
  m.attached_gpus = core::Absent{elisions.empty() ? "nvidia-smi nvlink -s does not state the number of attached GPUs"
                                                  : "GPUs elided in the input; nvidia-smi nvlink -s does not state the number"};
  m.links = core::Absent{"nvidia-smi nvlink -s shows link ports, not the GPU x GPU matrix"};
  m.nvswitch_present = core::Absent{kNotInNvlink};
  m.nics = core::Absent{kNotInNvlink};
  m.numa_nodes = core::Absent{kNotInNvlink};
  if (counters) {
    m.notes.push_back(fmt::format("{} is nvidia-smi nvlink -gt d (traffic counters), not nvlink -s: ports with traffic are taken as active, "
                                  "link speeds are unknown", file));
  }
  if (views.errors || views.remote || views.capabilities) {
    m.notes.push_back(fmt::format("{} is nvidia-smi nvlink {}: it does not show which links are up{}", file, view,
                                  views.remote ? " (a link with a remote device is taken as up)" : ""));
  }
  if (views.other_values > 0) {
    m.notes.push_back(fmt::format("{}: {} per-link values that are not error counts (traffic, BER, FEC) were not judged", file, views.other_values));
  }
  for (const auto& e : elisions) m.notes.push_back(elision_note(e, blocks));
  m.notes.insert(m.notes.end(), cut_notes.begin(), cut_notes.end());
  if (blocks.back().header_cut) {
    blocks.back().nvml_message = "the input ends inside this GPU's header line";
  } else {
    check_last_block(blocks, file, lines[last - 1].number, m.notes);
  }
  if (views.info) {
    m.notes.push_back(fmt::format("{} is nvidia-smi nvlink -info: NVLink encryption (NVLE) and firmware versions, no links", file));
    for (auto& b : blocks) {
      if (!b.info.empty()) m.notes.push_back(fmt::format("GPU {}: {}", b.gpu.index, b.info));
      if (b.ports.empty() && b.nvml_message.empty()) b.nvml_message = "nvidia-smi nvlink -info does not list the links";
    }
  }
  mark_switch_ports(blocks);
  for (auto& b : blocks) {
    finish_block(b, file, m, views);
    m.gpus.push_back(std::move(b.gpu));
  }
  return m;
}

}  // namespace

core::Result<core::Machine> parse_nvlink_status(std::string_view text, const std::string& file_name) {
  try {
    return parse(text, file_name);
  } catch (const std::exception& e) {
    return core::internal_error(fmt::format("{}: parsing nvidia-smi nvlink -s failed: {}", file_name, e.what()));
  }
}

}  // namespace gpuvet::parsers
