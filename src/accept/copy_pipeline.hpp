// Copies and VRAM, observed and judged in one place for `gpuvet bench` and the accept stages:
// the probe runs the suites through an api::CopyBackend, then each suite's run is judged against
// the machine's envelope on its own (a slow host link never stains the peer verdict). What the
// caller then does with the outcome differs: bench renders it, accept decides clauses
// (copy_clauses.hpp). Runs on the calling thread; a probe that cannot start is an error.
#pragma once

#include <optional>
#include <vector>

#include "backends/api/copy_backend.hpp"
#include "core/assessment.hpp"
#include "core/bandwidth.hpp"
#include "core/gpu_model.hpp"
#include "core/machine.hpp"
#include "core/vram.hpp"
#include "probes/bandwidth_probe.hpp"
#include "probes/vram_probe.hpp"

namespace gpuvet::accept {

// One suite measured and judged: `judged` holds its findings and BandwidthSummary rows only.
struct JudgedSuite {
  probes::BandwidthSuite suite = probes::BandwidthSuite::host;
  core::BandwidthRun run;
  core::Assessment judged;
};

// Measures `suites` in order and judges each against `machine` (`interconnect`: the judge's view
// of its fabric, which sets the peer envelope).
core::Result<std::vector<JudgedSuite>> observe_copies(api::CopyBackend& backend,
                                                      const std::vector<probes::BandwidthSuite>& suites,
                                                      const probes::BandwidthOptions& options, const core::Machine& machine,
                                                      const core::Catalog& catalog, const core::InterconnectSummary& interconnect);

struct JudgedVram {
  core::VramRun run;
  core::Assessment judged;  // vram_errors / vram_short, and GPUs left unverified
};

core::Result<JudgedVram> observe_vram(api::CopyBackend& backend, const probes::VramOptions& options);

}  // namespace gpuvet::accept
