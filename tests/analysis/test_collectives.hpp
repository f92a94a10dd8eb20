// Hand-built collective runs for the judge's tests.
#pragma once

#include <string>
#include <vector>

#include "core/assessment.hpp"
#include "core/collective.hpp"

namespace gpuvet::analysis::testing {

// An nccl-tests style run: sizes 1 MiB .. max_bytes doubling, busbw rising to `peak_busbw`.
core::CollectiveRun run(const std::string& op, int ranks, double peak_busbw, std::uint64_t max_bytes = 8ull << 30,
                        const std::string& device = "NVIDIA H100 80GB HBM3");
// Judges runs on their own (no machine described) and returns the assessment.
core::Assessment judge_runs(const std::vector<core::CollectiveRun>& runs);
// Findings from a set of runs that emits every collective finding code.
std::vector<core::Finding> collective_gallery_findings();

}  // namespace gpuvet::analysis::testing
