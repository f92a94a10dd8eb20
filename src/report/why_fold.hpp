// The verdict's "why" lines for display: a culprit (straggler_gpu, slow_link) fails every clause
// whose GPU sets hold it, and each failing clause's reason quotes it. Shown, its sentence appears
// once (the first line that gives it); later lines point back to it, and the per-set
// measurements it explains are counted instead of quoted. Built from the failing clauses' reason
// parts (accept::ClauseResult::reason_parts), never by editing text. Pure; report.json keeps every line.
#pragma once

#include <string>
#include <vector>

#include "accept/accept_model.hpp"

namespace gpuvet::report {

// r.why with repeated culprit sentences and the per-set findings they explain folded.
std::vector<std::string> fold_why(const accept::AcceptReport& r);

}  // namespace gpuvet::report
