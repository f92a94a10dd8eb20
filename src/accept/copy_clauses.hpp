// The copy and VRAM clauses decided as pure functions of the judge's typed outcome and the spec
// (no probe, no backend, no message text): bandwidth.h2d and bandwidth.p2p from each suite's
// matrices and findings, vram from the per-GPU checks. Called by the accept stages after
// copy_pipeline.hpp has measured and judged; tested on hand-made outcomes.
#pragma once

#include <vector>

#include "accept/accept_model.hpp"
#include "core/assessment.hpp"
#include "core/bandwidth.hpp"
#include "core/gpu_model.hpp"
#include "core/vram.hpp"
#include "spec/spec.hpp"

namespace gpuvet::accept {

// What the bandwidth clauses read: each suite's run with the judge's view of that run alone.
struct CopySuiteOutcome {
  const core::BandwidthRun& run;
  const core::Assessment& judged;
};

// Decides `c` when it is bandwidth.h2d (host suite) or bandwidth.p2p (peer suite); other clauses
// are left as they are. `auto` clauses judge against the promised machine's envelope (or this
// machine's own when the spec does not fix one); floors against the spec's GB/s.
void decide_bandwidth_clause(ClauseResult& c, const CopySuiteOutcome& host, const CopySuiteOutcome& peer,
                             const spec::Spec& spec, const core::Catalog& catalog);

// Decides the vram clause: fail on a GPU whose memory reads back wrong or whose verified memory
// is below the spec's share of gpu.memory; not run while any GPU is unverified and none failed.
void decide_vram_clause(ClauseResult& c, const core::VramRun& run, const std::vector<core::Finding>& findings,
                        const spec::Spec& spec);

}  // namespace gpuvet::accept
