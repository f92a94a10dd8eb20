// One finding as report JSON: code, severity, gpus, message, evidence (object, in order), next_step.
// Shared by the machine report (json_report.cpp), the burn-in report and gpuvet nccl's cluster
// report, so a finding reads the same wherever it appears.
#pragma once

#include <nlohmann/json.hpp>

#include "core/finding.hpp"

namespace gpuvet::report {

nlohmann::ordered_json finding_json(const core::Finding& finding);

}  // namespace gpuvet::report
