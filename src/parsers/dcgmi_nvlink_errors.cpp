// Parser of `dcgmi nvlink -e -g N` (--errors): per GPU a box of links, each with its CRC FLIT,
// CRC Data, Replay and Recovery error counts. Form from a real capture (facebookresearch/gcm,
// gcm/health_checks/checks/check_dcgmi.py docstring, `dcgmi nvlink -e -g 0 | head -n 9`).
#include <charconv>
#include <exception>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "parsers/dcgmi_nvlink_parser.hpp"
#include "parsers/text_lines.hpp"
#include "parsers/topo_common.hpp"

namespace gpuvet::parsers {

namespace {

constexpr const char* kNotInDcgmiErrors = "not in dcgmi nvlink -e";

// The cells of a "| a | b |" box row, trimmed; empty for other lines.
std::vector<std::string> box_cells(std::string_view t) {
  std::vector<std::string> cells;
  if (t.size() < 2 || t.front() != '|' || t.back() != '|') return cells;
  t = t.substr(1, t.size() - 2);
  while (true) {
    const auto bar = t.find('|');
    cells.emplace_back(trim(t.substr(0, bar)));
    if (bar == std::string_view::npos) break;
    t.remove_prefix(bar + 1);
  }
  return cells;
}

bool numbered(std::string_view cell, std::string_view key, int& n) {
  return starts_with(cell, key) && parse_int(trim(cell.substr(key.size())), n) && n >= 0;
}

core::NvLinkPort port_of(int link) {
  core::NvLinkPort p;
  p.link = link;
  p.active = core::Absent{"dcgmi nvlink -e shows error counts, not link states"};
  p.speed_gbps = core::Absent{kNotInDcgmiErrors};
  p.version = core::Absent{kNotInDcgmiErrors};
  p.remote = core::Absent{kNotInDcgmiErrors};
  p.remote_pci_bus_id = core::Absent{kNotInDcgmiErrors};
  p.error_counters = std::vector<core::NvLinkCounter>{};
  return p;
}

core::Result<core::Machine> parse(std::string_view text, const std::string& file) {
  const auto lines = split_lines(text);
  core::Machine m;
  std::vector<std::string> unreadable;
  std::vector<core::NvLinkPort> ports;         // of the GPU being read
  std::vector<core::NvLinkCounter> counters;   // of the link being read
  std::size_t counters_in_last_link = 0;
  const auto end_link = [&] {
    if (!ports.empty()) ports.back().error_counters = counters;
    counters.clear();
  };
  const auto end_gpu = [&] {
    end_link();
    if (!m.gpus.empty()) m.gpus.back().nvlinks = ports;
    ports.clear();
  };
  for (const auto& line : lines) {
    const auto cells = box_cells(trim(line.text));
    if (cells.empty()) continue;
    int n = -1;
    if (cells.size() == 1 && numbered(cells[0], "GPU ", n)) {
      if (!m.gpus.empty() && n <= m.gpus.back().index) {
        return line_error(file, line.number, fmt::format("GPU {} after GPU {}; expected one box per GPU, in order", n, m.gpus.back().index));
      }
      end_gpu();
      m.gpus.push_back(unknown_gpu(n, kNotInDcgmiErrors));
      continue;
    }
    if (m.gpus.empty()) continue;
    if (numbered(cells[0], "Link ", n)) {
      end_link();
      ports.push_back(port_of(n));
      counters_in_last_link = 0;
      continue;
    }
    if (!starts_with(cells[0], "->") || cells.size() < 2 || ports.empty()) continue;
    const std::string name(trim(std::string_view(cells[0]).substr(2)));
    const std::string& value = cells[1];
    std::uint64_t v = 0;
    const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
    ++counters_in_last_link;
    // "Not Supported", "N/A": unknown, never 0.
    if (ec != std::errc() || end != value.data() + value.size()) {
      unreadable.push_back(fmt::format("GPU {} link {} {}: {}", m.gpus.back().index, ports.back().link, name, quoted(value)));
      continue;
    }
    counters.push_back(core::NvLinkCounter{name, v});
  }
  end_gpu();
  if (m.gpus.empty()) {
    return line_error(file, lines.empty() ? 1 : lines.back().number,
                      "reached the end of the input without a \"| GPU N |\" row of dcgmi nvlink -e");
  }
  m.source = fmt::format("dcgmi nvlink -e ({})", file);
  m.hostname = core::Absent{kNotInDcgmiErrors};
  m.driver_version = core::Absent{kNotInDcgmiErrors};
  m.cuda_version = core::Absent{kNotInDcgmiErrors};
  m.attached_gpus = core::Absent{"dcgmi nvlink -e -g N shows the GPUs asked for, not the attached count"};
  m.links = core::Absent{"dcgmi nvlink -e shows error counts, not the GPU x GPU matrix"};
  m.nvswitch_present = core::Absent{kNotInDcgmiErrors};
  m.nics = core::Absent{kNotInDcgmiErrors};
  m.numa_nodes = core::Absent{kNotInDcgmiErrors};
  std::vector<std::string> shown;
  for (const auto& g : m.gpus) shown.push_back(fmt::format("GPU {}: {} link(s)", g.index, g.nvlinks->size()));
  m.notes.push_back(fmt::format("{} is dcgmi nvlink -e: NVLink error counts by DCGM gpuId ({}); links not listed and "
                                "link states are not shown",
                                file, fmt::join(shown, ", ")));
  if (!unreadable.empty()) {
    m.notes.push_back(fmt::format("{}: counters that are not numbers, left unknown: {}", file, fmt::join(unreadable, ", ")));
  }
  if (counters_in_last_link > 0 && counters_in_last_link < 4) {
    m.notes.push_back(fmt::format("{}: the paste ends inside the counters of its last link", file));
  }
  return m;
}

}  // namespace

bool looks_like_dcgmi_nvlink_errors(std::string_view text) {
  return text.find("NVLINK Error Counts") != std::string_view::npos && text.find("| GPU ") != std::string_view::npos;
}

core::Result<core::Machine> parse_dcgmi_nvlink_errors(std::string_view text, const std::string& file_name) {
  try {
    return parse(text, file_name);
  } catch (const std::exception& e) {
    return core::internal_error(fmt::format("{}: parsing dcgmi nvlink -e failed: {}", file_name, e.what()));
  }
}

}  // namespace gpuvet::parsers
