// Every finding code the judge can emit, with its default severity, a description and the
// generic next step. docs/findings.md is generated from this list; codes are append-only.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/finding.hpp"

namespace gpuvet::analysis {

struct FindingInfo {
  std::string code;
  core::Severity severity;  // the most severe level the code is emitted at
  std::string title;
  std::string description;
  std::string next_step;
};

const std::vector<FindingInfo>& finding_catalog();
// The entry for `code`, or nullptr when the judge has no such code.
const FindingInfo* find_finding_info(std::string_view code);

}  // namespace gpuvet::analysis
