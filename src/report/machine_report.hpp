// What `gpuvet inspect` and `gpuvet analyze` render: the machine picture and the judge's
// assessment, plus the verdict. Renderers take this and return text; they never measure.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/assessment.hpp"
#include "core/bandwidth.hpp"
#include "core/vram.hpp"
#include "core/machine.hpp"
#include "core/verdict.hpp"

namespace gpuvet::report {

// Versioned schema of the JSON document (docs/json-schema.md). Bump on incompatible change.
inline constexpr std::string_view kMachineReportSchema = "gpuvet.machine/1";

// What gpuvet measured itself (gpuvet bench): the full matrices, not only their summaries.
struct Measurements {
  std::vector<core::BandwidthRun> bandwidth;
  std::optional<core::VramRun> vram;
};

struct MachineReport {
  std::string command;  // "inspect", "analyze" or "bench"
  const core::Machine& machine;
  const core::Assessment& assessment;
  core::Verdict verdict = core::Verdict::pass;
  const Measurements* measurements = nullptr;  // JSON gains a "measurements" object when set
};

std::string render_json(const MachineReport& report);

struct TextOptions {
  bool color = false;  // ANSI colours for severities (only on a terminal)
};
std::string render_text(const MachineReport& report, const TextOptions& options = {});

// gpuvet bench: a one-line machine header, each matrix with its expectation, VRAM results,
// findings and the verdict.
std::string render_bench_text(const MachineReport& report, const TextOptions& options = {});

}  // namespace gpuvet::report
