// Parser of `dcgmi nvlink -s` (see dcgmi_nvlink_parser.hpp).
#include "parsers/dcgmi_nvlink_parser.hpp"

#include <exception>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "parsers/text_lines.hpp"
#include "parsers/topo_common.hpp"

namespace gpuvet::parsers {

namespace {

constexpr const char* kNotInDcgmi = "not in dcgmi nvlink -s";

bool id_line(std::string_view t, std::string_view key, int& id) {
  if (!starts_with(t, key) || t.empty() || t.back() != ':') return false;
  return parse_int(trim(t.substr(key.size(), t.size() - key.size() - 1)), id) && id >= 0;
}

bool state_line(std::string_view t) {
  const auto cells = split_ws(t);
  if (cells.empty()) return false;
  for (const auto& c : cells) {
    if (c != "U" && c != "D" && c != "X" && c != "_") return false;
  }
  return true;
}

core::Result<core::Machine> parse(std::string_view text, const std::string& file) {
  const auto lines = split_lines(text);
  core::Machine m;
  std::vector<std::string> disabled;
  bool in_switches = false, switches = false;
  int pending_gpu = -1;
  for (const auto& line : lines) {
    const auto t = trim(line.text);
    int id = -1;
    if (starts_with(t, "NvSwitches")) in_switches = true;
    if (starts_with(t, "GPUs")) in_switches = false;
    if (id_line(t, "gpuId", id)) {
      if (!m.gpus.empty() && id <= m.gpus.back().index) {
        return line_error(file, line.number, fmt::format("gpuId {} after gpuId {}; dcgmi lists GPUs in order", id, m.gpus.back().index));
      }
      pending_gpu = id;
      auto g = unknown_gpu(id, kNotInDcgmi);
      g.nvlinks = core::Absent{"the input ends before this GPU's link states"};
      m.gpus.push_back(std::move(g));
      continue;
    }
    if (in_switches && id_line(t, "physicalId", id)) switches = true;
    if (pending_gpu < 0 || !state_line(t)) continue;
    std::vector<core::NvLinkPort> ports;
    const auto cells = split_ws(t);
    for (size_t i = 0; i < cells.size(); ++i) {
      if (cells[i] == "_") continue;
      core::NvLinkPort p;
      p.link = static_cast<int>(i);
      p.active = cells[i] == "U";
      p.speed_gbps = core::Absent{kNotInDcgmi};
      p.version = core::Absent{kNotInDcgmi};
      p.remote = core::Absent{kNotInDcgmi};
      p.remote_pci_bus_id = core::Absent{kNotInDcgmi};
      p.error_counters = core::Absent{kNotInDcgmi};
      if (cells[i] == "X") disabled.push_back(fmt::format("GPU {} link {}", pending_gpu, i));
      ports.push_back(p);
    }
    m.gpus.back().nvlinks = std::move(ports);
    pending_gpu = -1;
  }
  if (m.gpus.empty()) {
    return line_error(file, lines.empty() ? 1 : lines.back().number, "reached the end of the input without a \"gpuId N:\" line of dcgmi nvlink -s");
  }
  m.source = fmt::format("dcgmi nvlink -s ({})", file);
  m.hostname = core::Absent{kNotInDcgmi};
  m.driver_version = core::Absent{kNotInDcgmi};
  m.cuda_version = core::Absent{kNotInDcgmi};
  m.attached_gpus = core::Absent{"dcgmi nvlink -s lists the GPUs DCGM watches, not the attached count"};
  m.links = core::Absent{"dcgmi nvlink -s shows link states, not the GPU x GPU matrix"};
  m.nvswitch_present = switches ? core::Reading<bool>(true) : core::Reading<bool>::absent("no NvSwitches section with a physicalId");
  m.nics = core::Absent{kNotInDcgmi};
  m.numa_nodes = core::Absent{kNotInDcgmi};
  m.notes.push_back(fmt::format("{} is dcgmi nvlink -s: GPUs by DCGM gpuId, link states only (no names, bus ids or speeds)", file));
  if (!disabled.empty()) {
    m.notes.push_back(fmt::format("{}: links disabled (X), counted as not up: {}", file, fmt::join(disabled, ", ")));
  }
  return m;
}

}  // namespace

bool looks_like_dcgmi_nvlink(std::string_view text) {
  return (text.find("NvLink Link Status") != std::string_view::npos && text.find("gpuId") != std::string_view::npos) ||
         looks_like_dcgmi_nvlink_errors(text);
}

core::Result<core::Machine> parse_dcgmi_nvlink(std::string_view text, const std::string& file_name) {
  if (text.find("NvLink Link Status") == std::string_view::npos && looks_like_dcgmi_nvlink_errors(text)) {
    return parse_dcgmi_nvlink_errors(text, file_name);
  }
  try {
    return parse(text, file_name);
  } catch (const std::exception& e) {
    return core::internal_error(fmt::format("{}: parsing dcgmi nvlink -s failed: {}", file_name, e.what()));
  }
}

}  // namespace gpuvet::parsers
