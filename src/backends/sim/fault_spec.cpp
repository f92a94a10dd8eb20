// Fault overlay syntax ("nvlink-down:gpu=3,link=2") and the documented list of faults.
// Semantics live in fault_overlays.cpp; keep names and params stable (scripts and tests use them).
#include <cctype>

#include "backends/sim/simulator.hpp"

#include "backends/sim/fault_registry.hpp"

namespace gpuvet::sim {
namespace {

bool is_name_char(char c) {
  return std::islower(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) || c == '-' ||
         c == '_';
}

std::string trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return std::string(s);
}

core::Error syntax_error(std::string_view text, const std::string& what) {
  return core::usage_error("fault '" + std::string(text) + "': " + what +
                           " (expected NAME or NAME:key=value,key=value, e.g. nvlink-down:gpu=3,link=2)");
}

}  // namespace

core::Result<FaultSpec> parse_fault(std::string_view text) {
  FaultSpec spec;
  spec.text = std::string(text);
  const auto colon = text.find(':');
  spec.name = trim(text.substr(0, colon));
  if (spec.name.empty()) return syntax_error(text, "missing fault name");
  for (char c : spec.name) {
    if (!is_name_char(c)) return syntax_error(text, "bad character '" + std::string(1, c) + "' in fault name");
  }
  if (colon == std::string_view::npos) return spec;
  std::string_view rest = text.substr(colon + 1);
  if (trim(rest).empty()) return syntax_error(text, "nothing after ':'");
  while (true) {
    const auto comma = rest.find(',');
    const std::string_view item = rest.substr(0, comma);
    const auto eq = item.find('=');
    if (eq == std::string_view::npos) return syntax_error(text, "'" + trim(item) + "' is not key=value");
    std::string key = trim(item.substr(0, eq));
    std::string value = trim(item.substr(eq + 1));
    if (key.empty()) return syntax_error(text, "empty key in '" + trim(item) + "'");
    if (value.empty()) return syntax_error(text, "empty value for '" + key + "'");
    for (const auto& [k, v] : spec.params) {
      if (k == key) return syntax_error(text, "'" + key + "' given twice");
    }
    spec.params.emplace_back(std::move(key), std::move(value));
    if (comma == std::string_view::npos) break;
    rest = rest.substr(comma + 1);
  }
  return spec;
}

std::vector<FaultInfo> list_faults() {
  std::vector<FaultInfo> out;
  for (const auto& def : fault_defs()) out.push_back({def.name, def.usage, def.description});
  return out;
}

}  // namespace gpuvet::sim
