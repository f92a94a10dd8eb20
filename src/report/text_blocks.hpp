// Text blocks every terminal report shares (internal to report/): findings and the verdict line.
#pragma once

#include <string>
#include <vector>

#include "core/assessment.hpp"
#include "core/finding.hpp"
#include "core/verdict.hpp"

namespace gpuvet::report {

// One block per finding: severity, code, GPUs, message, evidence, next step.
std::string findings_block(const std::vector<core::Finding>& findings, bool color);
// "Verdict: FAIL (2 failing, 1 warning findings)".
std::string verdict_line(const core::Assessment& assessment, core::Verdict verdict, bool color);

}  // namespace gpuvet::report
