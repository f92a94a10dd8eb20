// Fault overlay syntax ("nvlink-down:gpu=3,link=2") and the documented list of faults.
// Semantics live in fault_overlays.cpp; keep names and params stable (scripts and tests use them).
#include <cctype>

#include "backends/sim/simulator.hpp"

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
  return {
      {"nvlink-down", "nvlink-down:gpu=N,link=L",
       "NVLink port L of GPU N is inactive; the pair(s) it served lose one link in the topology "
       "(on NVSwitch machines every pair of GPU N drops by one, NV18 -> NV17 on H100)."},
      {"pcie-degraded", "pcie-degraded:gpu=N[,gen=G][,width=W]",
       "GPU N trains its PCIe link below its maximum: current gen G (default max-1) and/or width W "
       "(default unchanged); the maximum stays as it was."},
      {"mixed-batch", "mixed-batch:gpu=N[,vbios=V][,part=P][,memory_gib=M]",
       "GPU N comes from another batch: its VBIOS, board part number and/or memory total differ "
       "(at least one key)."},
      {"gpu-missing", "gpu-missing:gpu=N",
       "GPU N is on the PCI bus but NVML does not enumerate it: it vanishes from the GPU list, "
       "topology and NIC proximity, the rest are renumbered as NVML would, attached_gpus keeps the full "
       "count. In every fault, gpu=N is the profile's GPU N, before any renumbering."},
      {"numa-misplaced", "numa-misplaced:gpu=N,node=K",
       "GPU N reports NUMA node K and that node's CPUs while its PCIe placement stays where it is "
       "(wrong affinity: host copies cross the socket link)."},
  };
}

}  // namespace gpuvet::sim
