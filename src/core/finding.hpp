// A finding: something the judge says about the machine. Codes are stable and append-only
// (docs/findings.md); severity says whether it fails the machine; evidence says why.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gpuvet::core {

enum class Severity { info, warn, fail };
std::string_view to_string(Severity severity);

struct Finding {
  std::string code;                 // "mixed_inventory", ...
  Severity severity = Severity::info;
  std::vector<int> gpus;            // GPU indices involved (may be empty)
  std::string message;              // one line a buyer understands
  std::vector<std::pair<std::string, std::string>> evidence;  // measured/expected, per key
  std::string next_step;            // what to do about it
};

// Highest severity in the list (info when empty).
Severity worst(const std::vector<Finding>& findings);

}  // namespace gpuvet::core
