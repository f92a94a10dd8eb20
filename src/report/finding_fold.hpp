// Folding findings for display: a measurement repeated on every GPU set that contains one slow
// GPU or link is shown once, under the finding that names the culprit (straggler_gpu, slow_link),
// and findings that differ only in their numbers are shown once with a count. Pure; the report's
// data (JSON) keeps every finding, only text, Markdown and HTML fold.
#pragma once

#include <string>
#include <vector>

#include "core/finding.hpp"

namespace gpuvet::report {

struct FoldedFinding {
  core::Finding finding;               // the one shown
  std::vector<core::Finding> folded;   // shown only through `summary`
  std::string summary;                 // empty when nothing was folded into it
};

// In the input's order (a folded finding's place is taken by the one it folds into).
std::vector<FoldedFinding> fold_findings(const std::vector<core::Finding>& findings);

// The GPUs a finding concerns: its `gpus`, else the list after "GPUs " in its message
// ("GPUs 0,3", "GPUs 0-3, 6"). Empty when neither says.
std::vector<int> gpu_set_of(const core::Finding& finding);

}  // namespace gpuvet::report
