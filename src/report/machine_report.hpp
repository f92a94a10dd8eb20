// What `gpuvet inspect` and `gpuvet analyze` render: the machine picture and the judge's
// assessment, plus the verdict. Renderers take this and return text; they never measure.
#pragma once

#include <string>

#include "core/assessment.hpp"
#include "core/machine.hpp"
#include "core/verdict.hpp"

namespace gpuvet::report {

// Versioned schema of the JSON document (docs/json-schema.md). Bump on incompatible change.
inline constexpr std::string_view kMachineReportSchema = "gpuvet.machine/1";

struct MachineReport {
  std::string command;  // "inspect" or "analyze"
  const core::Machine& machine;
  const core::Assessment& assessment;
  core::Verdict verdict = core::Verdict::pass;
};

std::string render_json(const MachineReport& report);

struct TextOptions {
  bool color = false;  // ANSI colours for severities (only on a terminal)
};
std::string render_text(const MachineReport& report, const TextOptions& options = {});

}  // namespace gpuvet::report
