// Glued topo -m cells and the topo -mp view (see topo_cells.hpp).
#include "parsers/topo_cells.hpp"

#include <cctype>
#include <optional>

#include "core/topology.hpp"

namespace gpuvet::parsers {

namespace {

// Length of the link token at the start of `s` ("NV12", "SYS", "X"), 0 when none.
size_t link_token(std::string_view s) {
  for (std::string_view w : {"NODE", "PIX", "PXB", "PHB", "SYS", "SOC", "X"}) {
    if (s.substr(0, w.size()) == w) return w.size();
  }
  if (s.substr(0, 2) == "NV") {
    size_t n = 2;
    while (n < s.size() && std::isdigit(static_cast<unsigned char>(s[n]))) ++n;
    if (n > 2) return n;
  }
  return 0;
}

// The parts of one glued cell, or nullopt when it does not split cleanly.
std::optional<std::vector<std::string>> split_cell(std::string_view cell) {
  std::vector<std::string> parts;
  std::string_view rest = cell;
  while (!rest.empty()) {
    const size_t n = link_token(rest);
    if (n == 0) break;
    // "NV12" followed by a digit-led value could be NV1 + 20-23: ambiguous.
    if (rest[0] == 'N' && rest[1] == 'V' && n < rest.size() && (rest[n] == '-' || rest[n] == ',')) return std::nullopt;
    parts.emplace_back(rest.substr(0, n));
    rest.remove_prefix(n);
  }
  if (parts.empty()) return std::nullopt;
  if (!rest.empty()) {
    if (!std::isdigit(static_cast<unsigned char>(rest[0])) && rest != "N/A") return std::nullopt;
    parts.emplace_back(rest);
  }
  if (parts.size() < 2) return std::nullopt;
  return parts;
}

}  // namespace

std::vector<std::string> split_glued_cells(const std::vector<std::string>& cells, bool& split) {
  std::vector<std::string> out;
  for (size_t i = 0; i < cells.size(); ++i) {
    if (i == 0 || core::parse_link(cells[i])) {
      out.push_back(cells[i]);
      continue;
    }
    const auto parts = split_cell(cells[i]);
    if (!parts) {
      out.push_back(cells[i]);
      continue;
    }
    split = true;
    out.insert(out.end(), parts->begin(), parts->end());
  }
  return out;
}

bool looks_like_topo_mp(const std::vector<Line>& lines, size_t after) {
  for (const auto& l : lines) {
    if (l.text.find("topo -mp") != std::string::npos || l.text.find("--matrix_pci") != std::string::npos) return true;
  }
  for (size_t i = after; i < lines.size(); ++i) {
    const auto t = trim(lines[i].text);
    if (!starts_with(t, "PIX") || t.find('=') == std::string_view::npos) continue;
    for (size_t j = i + 1; j < lines.size(); ++j) {
      const auto u = trim(lines[j].text);
      if (u.empty()) continue;
      return !starts_with(u, "NV");
    }
    return false;
  }
  return false;
}

}  // namespace gpuvet::parsers
