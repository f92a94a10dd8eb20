// Private helpers shared by the pasted-output parsers (see topo_common.hpp).
#include "parsers/topo_common.hpp"

#include <charconv>
#include <fmt/format.h>

#include "parsers/text_lines.hpp"

namespace gpuvet::parsers {

namespace {
constexpr size_t kMaxQuoted = 40;
}  // namespace

std::string quoted(std::string_view text) {
  std::string out = "\"";
  const size_t n = text.size() < kMaxQuoted ? text.size() : kMaxQuoted;
  for (size_t i = 0; i < n; ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x20 || c >= 0x7f || c == '"' || c == '\\') {
      out += fmt::format("\\x{:02x}", static_cast<unsigned>(c));
    } else {
      out.push_back(static_cast<char>(c));
    }
  }
  if (text.size() > kMaxQuoted) out += "...";
  out += "\"";
  return out;
}

core::Error line_error(const std::string& file_name, int line, const std::string& what) {
  return core::input_error(fmt::format("{}: line {}: {}", file_name, line, what));
}

bool parse_int(std::string_view text, int& out) {
  if (text.empty()) return false;
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && ptr == text.data() + text.size();
}

std::optional<std::vector<int>> parse_id_list(std::string_view text) {
  std::vector<int> ids;
  while (!text.empty()) {
    const auto comma = text.find(',');
    const auto item = text.substr(0, comma);
    const auto dash = item.find('-');
    int lo = 0;
    int hi = 0;
    if (!parse_int(item.substr(0, dash), lo) || lo < 0) return std::nullopt;
    hi = lo;
    if (dash != std::string_view::npos && (!parse_int(item.substr(dash + 1), hi) || hi < lo)) return std::nullopt;
    if (ids.size() + static_cast<size_t>(hi - lo) >= 4096) return std::nullopt;
    for (int id = lo; id <= hi; ++id) ids.push_back(id);
    if (comma == std::string_view::npos) break;
    text.remove_prefix(comma + 1);
    if (text.empty()) return std::nullopt;
  }
  if (ids.empty()) return std::nullopt;
  return ids;
}

bool is_normal_bus_id(std::string_view id) {
  return id.size() == 12 && id[4] == ':' && id[7] == ':' && id[10] == '.';
}

core::Gpu unknown_gpu(int index, const std::string& reason) {
  using core::Absent;
  const Absent a{reason};
  core::Gpu g;
  g.index = index;
  g.name = a;
  g.uuid = a;
  g.serial = a;
  g.board_part_number = a;
  g.vbios = a;
  g.inforom_image = a;
  g.architecture = a;
  g.compute_capability = a;
  g.memory_total_mib = a;
  g.pci_bus_id = a;
  g.pcie.gen_current = a;
  g.pcie.gen_max = a;
  g.pcie.width_current = a;
  g.pcie.width_max = a;
  g.numa_node = a;
  g.cpu_affinity = a;
  g.power_limit_w = a;
  g.max_sm_clock_mhz = a;
  g.max_mem_clock_mhz = a;
  g.ecc_enabled = a;
  g.mig_enabled = a;
  g.virtualization_mode = a;
  g.fabric_state = a;
  g.idle = a;
  g.clocks_event_reasons = a;
  g.nvlinks = a;
  auto& m = g.memory_health;
  m.remapped_rows_correctable = a;
  m.remapped_rows_uncorrectable = a;
  m.remap_pending = a;
  m.remap_failure = a;
  m.retired_pages_sbe = a;
  m.retired_pages_dbe = a;
  m.retired_pages_pending = a;
  return g;
}

std::string strip_escape_residue(std::string_view line) {
  std::string out;
  out.reserve(line.size());
  for (size_t i = 0; i < line.size(); ++i) {
    if (line[i] == '[') {
      size_t j = i + 1;
      while (j < line.size() && ((line[j] >= '0' && line[j] <= '9') || line[j] == ';')) ++j;
      if (j > i + 1 && j < line.size() && line[j] == 'm') {
        i = j;
        continue;
      }
    }
    out.push_back(line[i]);
  }
  return out;
}

bool is_topo_header(std::string_view raw) {
  const auto clean = strip_escape_residue(raw);
  const std::string_view line = clean;
  const auto cells = split_ws(line);
  if (cells.size() < 2 || cells[0] != "GPU0") return false;
  return cells[1] == "GPU1" || line.find("CPU Affinity") != std::string_view::npos;
}

bool is_nvlink_gpu_line(std::string_view line, int& index, std::string& rest) {
  const auto text = trim(line);
  if (!starts_with(text, "GPU ")) return false;
  const auto colon = text.find(':');
  if (colon == std::string_view::npos) return false;
  if (!parse_int(trim(text.substr(4, colon - 4)), index) || index < 0) return false;
  rest = std::string(trim(text.substr(colon + 1)));
  return true;
}

}  // namespace gpuvet::parsers
