// Parser of the default nvidia-smi table (see smi_table_parser.hpp). Both layouts are read: the
// one of R525 and later (wider first column) and the older one; cells are split on '|'.
#include "parsers/smi_table_parser.hpp"

#include <algorithm>
#include <cstdint>
#include <exception>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <map>
#include <optional>

#include "parsers/topo_common.hpp"

namespace gpuvet::parsers {

namespace {

constexpr const char* kNotInTable = "not in the default nvidia-smi table";

// The cells between the '|' bars of a table line; empty when the line is not one.
std::vector<std::string> bar_cells(std::string_view line) {
  const auto t = trim(line);
  std::vector<std::string> out;
  if (t.size() < 2 || t.front() != '|') return out;
  size_t start = 1;
  while (start < t.size()) {
    const auto bar = t.find('|', start);
    if (bar == std::string_view::npos) {
      out.emplace_back(trim(t.substr(start)));  // a line cut before its closing bar
      break;
    }
    out.emplace_back(trim(t.substr(start, bar - start)));
    start = bar + 1;
  }
  return out;
}

// "59W /  500W" -> 500; "N/A" or a cut cell -> nullopt.
std::optional<double> power_cap(std::string_view cell) {
  const auto slash = cell.rfind('/');
  if (slash == std::string_view::npos) return std::nullopt;
  auto v = trim(cell.substr(slash + 1));
  if (v.size() < 2 || v.back() != 'W') return std::nullopt;
  int w = 0;
  if (!parse_int(v.substr(0, v.size() - 1), w) || w <= 0) return std::nullopt;
  return w;
}

// "1MiB /  81920MiB" -> 81920.
std::optional<std::uint64_t> memory_total(std::string_view cell) {
  const auto slash = cell.find('/');
  if (slash == std::string_view::npos) return std::nullopt;
  auto v = trim(cell.substr(slash + 1));
  if (v.size() < 4 || v.substr(v.size() - 3) != "MiB") return std::nullopt;
  int mib = 0;
  if (!parse_int(v.substr(0, v.size() - 3), mib) || mib <= 0) return std::nullopt;
  return static_cast<std::uint64_t>(mib);
}

// A warning line's PCI address ("... for GPU 0000:83:00.0: Unknown Error", "at gpu 0000:41:00.0").
std::optional<std::string> bus_after(std::string_view t, std::string_view marker) {
  const auto at = t.find(marker);
  if (at == std::string_view::npos) return std::nullopt;
  auto rest = trim(t.substr(at + marker.size()));
  const auto end = rest.find_first_of(" \t");
  auto id = rest.substr(0, end);
  while (!id.empty() && id.back() == ':') id.remove_suffix(1);
  const auto norm = core::normalize_pci_bus_id(id);
  if (!is_normal_bus_id(norm)) return std::nullopt;  // not a PCI address
  return norm;
}

struct Parsed {
  core::Machine m;
  std::map<int, int> mig_instances;  // GPU index -> MIG devices listed
  std::vector<std::string> cut_names;
  bool table = false;                // a GPU table (not only MIG rows or warnings)
};

void read_warning(std::string_view t, int line, const std::string& file, Parsed& p) {
  if (auto e = read_smi_warning(t, line, file)) p.m.events.push_back(std::move(*e));
}

// The three lines of one GPU block; `c1`, `c2` may be empty when the input ends.
void read_gpu(const std::vector<std::string>& c0, const std::vector<std::string>& c1, const std::vector<std::string>& c2,
              Parsed& p) {
  const auto first = split_ws(c0[0]);
  int index = -1;
  parse_int(first[0], index);
  auto g = unknown_gpu(index, kNotInTable);
  std::string name;
  for (size_t i = 1; i + 1 < first.size(); ++i) name += (name.empty() ? "" : " ") + first[i];
  // The persistence column ("On"/"Off") ends the first cell; a name alone when it is missing.
  if (!first.empty() && first.back() != "On" && first.back() != "Off") name += (name.empty() ? "" : " ") + first.back();
  if (!name.empty()) g.name = name;
  if (name.size() > 3 && name.substr(name.size() - 3) == "...") p.cut_names.push_back(fmt::format("GPU {} \"{}\"", index, name));
  if (c0.size() > 1) {
    const auto bus = split_ws(c0[1]);
    if (!bus.empty()) g.pci_bus_id = core::normalize_pci_bus_id(bus[0]);
  }
  if (c0.size() > 2) {
    const auto& ecc = c0[2];
    int count = -1;
    if (ecc == "Off") g.ecc_enabled = false;
    else if (parse_int(ecc, count)) g.ecc_enabled = true;
    else g.ecc_enabled = core::Absent{fmt::format("nvidia-smi printed {}", quoted(ecc))};
    if (count > 0) {
      p.m.notes.push_back(fmt::format("GPU {}: {} volatile uncorrected ECC error{} since the driver loaded (default nvidia-smi table)",
                                      index, count, count == 1 ? "" : "s"));
    }
  }
  if (!c1.empty()) {
    if (const auto w = power_cap(c1[0])) g.power_limit_w = *w;
    if (c1.size() > 1) {
      if (const auto mib = memory_total(c1[1])) g.memory_total_mib = *mib;
    }
  }
  if (c2.size() > 2) {
    const auto& mig = c2[2];
    if (mig == "Enabled") g.mig_enabled = true;
    else if (mig == "Disabled") g.mig_enabled = false;
    else g.mig_enabled = core::Absent{mig == "N/A" ? "nvidia-smi printed N/A (no MIG on this GPU)" : "not in the default nvidia-smi table"};
  }
  p.m.gpus.push_back(std::move(g));
}

bool is_gpu_first_line(const std::vector<std::string>& c) {
  if (c.size() < 2) return false;
  const auto cells = split_ws(c[0]);
  int index = -1;
  return cells.size() >= 2 && parse_int(cells[0], index) && index >= 0 && c[1].find(':') != std::string::npos;
}

core::Result<core::Machine> parse(std::string_view text, const std::string& file) {
  const auto lines = split_lines(text);
  Parsed p;
  auto& m = p.m;
  bool in_mig = false, in_processes = false, cut = false;
  // nvidia-smi closes the GPU table with the MIG devices or Processes box; a paste without either
  // may stop at any GPU block's border, after which more GPUs would follow.
  bool closed = false;
  int last_gpu = -1;
  for (size_t i = 0; i < lines.size(); ++i) {
    const auto t = trim(lines[i].text);
    if (t.empty()) continue;
    if (t.front() != '|' && t.front() != '+') {
      read_warning(t, lines[i].number, file, p);
      continue;
    }
    const auto c = bar_cells(t);
    if (c.empty()) continue;
    if (starts_with(c[0], "NVIDIA-SMI")) {
      const auto whole = std::string(t);
      for (const auto& [key, into] : {std::pair{std::string("Driver Version:"), &m.driver_version}, std::pair{std::string("CUDA Version:"), &m.cuda_version}}) {
        const auto at = whole.find(key);
        if (at == std::string::npos) continue;
        const auto v = split_ws(std::string_view(whole).substr(at + key.size()));
        if (!v.empty() && v[0] != "|") *into = v[0];
      }
      continue;
    }
    if (starts_with(c[0], "MIG devices")) in_mig = true, in_processes = false, closed = true;
    if (starts_with(c[0], "Processes")) in_processes = true, in_mig = false, closed = true;
    if (in_processes) continue;
    if (in_mig) {
      const auto cells = split_ws(c[0]);
      int gpu = -1, gi = -1;
      if (cells.size() >= 2 && parse_int(cells[0], gpu) && parse_int(cells[1], gi) && gpu >= 0) ++p.mig_instances[gpu];
      continue;
    }
    if (!is_gpu_first_line(c)) continue;
    p.table = true;
    std::vector<std::string> c1, c2;
    if (i + 1 < lines.size()) c1 = bar_cells(lines[i + 1].text);
    if (i + 2 < lines.size()) c2 = bar_cells(lines[i + 2].text);
    if (c1.size() < 3 || c2.size() < 3) cut = true;
    read_gpu(c, c1, c2, p);
    last_gpu = p.m.gpus.back().index;
    i += 2;
  }
  if (!p.table && p.mig_instances.empty() && m.events.empty()) {
    return line_error(file, lines.empty() ? 1 : lines.back().number, "reached the end of the input without a GPU row of the nvidia-smi table");
  }
  m.source = fmt::format("nvidia-smi ({})", file);
  m.hostname = core::Absent{kNotInTable};
  if (!m.driver_version.known()) m.driver_version = core::Absent{kNotInTable};
  if (!m.cuda_version.known()) m.cuda_version = core::Absent{kNotInTable};
  m.links = core::Absent{"the default nvidia-smi table does not show how the GPUs are linked"};
  m.nvswitch_present = core::Absent{kNotInTable};
  m.nics = core::Absent{kNotInTable};
  m.numa_nodes = core::Absent{kNotInTable};
  if (p.table) {
    // The table lists every GPU the driver can reach; a lost GPU is in the warnings instead.
    m.attached_gpus = core::Absent{"the default nvidia-smi table lists the GPUs it can reach, not the attached count"};
  } else {
    m.attached_gpus = core::Absent{"only the MIG devices table or warnings of nvidia-smi are in the input"};
  }
  for (const auto& [gpu, n] : p.mig_instances) {
    const int at = core::position_of_gpu(m, gpu);
    if (at < 0) {
      m.gpus.push_back(unknown_gpu(gpu, "only the MIG devices table of nvidia-smi is in the input"));
      m.gpus.back().mig_enabled = true;
    } else {
      m.gpus[static_cast<size_t>(at)].mig_enabled = true;
    }
    m.notes.push_back(fmt::format("GPU {}: {} MIG device{} listed (nvidia-smi MIG devices table)", gpu, n, n == 1 ? "" : "s"));
  }
  std::sort(m.gpus.begin(), m.gpus.end(), [](const core::Gpu& a, const core::Gpu& b) { return a.index < b.index; });
  if (!p.cut_names.empty()) {
    m.notes.push_back(fmt::format("{}: nvidia-smi cut long names in its table ({}); nvidia-smi -L or -q prints them whole",
                                  file, fmt::join(p.cut_names, ", ")));
  }
  if (cut) {
    m.notes.push_back(fmt::format("{}: the table is cut short; the last GPU block is incomplete", file));
  } else if (p.table && !closed) {
    m.notes.push_back(fmt::format("{}: line {}: the input ends after the block of GPU {} without the rest of the table (the "
                                  "Processes box nvidia-smi prints after its last GPU): the table looks cut, and GPUs after "
                                  "GPU {} would not be shown",
                                  file, lines.back().number, last_gpu, last_gpu));
  }
  if (!p.table && !p.mig_instances.empty()) {
    m.notes.push_back(fmt::format("{}: the input was trimmed to the MIG devices table: GPUs without MIG instances are omitted", file));
  }
  return m;
}

}  // namespace

std::optional<core::GpuEvent> read_smi_warning(std::string_view line, int number, const std::string& file_name) {
  const auto t = trim(line);
  core::GpuEvent e;
  std::string_view marker;
  if (t.find("Unable to determine the device handle for GPU") != std::string_view::npos) {
    e.kind = core::GpuEventKind::device_handle_lost;
    marker = "for GPU";
  } else if (t.find("infoROM is corrupted") != std::string_view::npos) {
    e.kind = core::GpuEventKind::inforom_corrupted;
    marker = "at gpu";
  } else {
    return std::nullopt;
  }
  const auto bus = bus_after(t, marker);
  e.pci_bus_id = bus ? core::Reading<std::string>(*bus) : core::Reading<std::string>::absent("the warning names no PCI address");
  e.text = std::string(t);
  e.where = fmt::format("{}: line {}", file_name, number);
  return e;
}

bool looks_like_smi_table(const std::vector<Line>& lines) {
  for (const auto& l : lines) {
    const auto t = trim(l.text);
    if ((t.find("NVIDIA-SMI ") != std::string_view::npos && t.find("Driver Version") != std::string_view::npos) ||
        (starts_with(t, "|") && (t.find("GPU  Name") != std::string_view::npos || t.find("MIG devices:") != std::string_view::npos)) ||
        t.find("Unable to determine the device handle for GPU") != std::string_view::npos ||
        t.find("infoROM is corrupted at gpu") != std::string_view::npos) {
      return true;
    }
  }
  return false;
}

core::Result<core::Machine> parse_smi_table(std::string_view text, const std::string& file_name) {
  try {
    return parse(text, file_name);
  } catch (const std::exception& e) {
    return core::internal_error(fmt::format("{}: parsing the nvidia-smi table failed: {}", file_name, e.what()));
  }
}

}  // namespace gpuvet::parsers
