// Severity names and aggregation.
#include "core/finding.hpp"

namespace gpuvet::core {

std::string_view to_string(Severity severity) {
  switch (severity) {
    case Severity::info: return "info";
    case Severity::warn: return "warn";
    case Severity::fail: return "fail";
  }
  return "info";
}

Severity worst(const std::vector<Finding>& findings) {
  Severity out = Severity::info;
  for (const auto& f : findings) {
    if (static_cast<int>(f.severity) > static_cast<int>(out)) out = f.severity;
  }
  return out;
}

}  // namespace gpuvet::core
