// Interconnect class names.
#include "core/assessment.hpp"

#include <algorithm>
#include <string>

namespace gpuvet::core {

std::string_view to_string(InterconnectClass cls) {
  switch (cls) {
    case InterconnectClass::nvswitch_full_mesh: return "nvswitch_full_mesh";
    case InterconnectClass::nvlink_direct_full_mesh: return "nvlink_direct_full_mesh";
    case InterconnectClass::nvlink_partial: return "nvlink_partial";
    case InterconnectClass::pcie_only: return "pcie_only";
    case InterconnectClass::unknown: return "unknown";
  }
  return "unknown";
}

bool parse_interconnect_claim(std::string_view text, InterconnectClass& out, bool& any_nvlink_mesh) {
  std::string t(text);
  std::replace(t.begin(), t.end(), '-', '_');
  std::transform(t.begin(), t.end(), t.begin(), [](unsigned char c) { return std::tolower(c); });
  any_nvlink_mesh = false;
  if (t == "nvswitch" || t == "nvswitch_full_mesh") out = InterconnectClass::nvswitch_full_mesh;
  else if (t == "nvlink_direct_full_mesh" || t == "nvlink_direct") out = InterconnectClass::nvlink_direct_full_mesh;
  else if (t == "nvlink") { out = InterconnectClass::nvlink_direct_full_mesh; any_nvlink_mesh = true; }
  else if (t == "nvlink_partial") out = InterconnectClass::nvlink_partial;
  else if (t == "pcie" || t == "pcie_only") out = InterconnectClass::pcie_only;
  else return false;
  return true;
}

}  // namespace gpuvet::core
