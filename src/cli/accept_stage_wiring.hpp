// The measuring stages of `gpuvet accept`, built from the run's one Target: its copy backend for
// the bandwidth and VRAM stages, its collectives, its burn-in load and telemetry. A backend that
// cannot open leaves its stage's clauses not run with the error as the reason (incomplete, never pass).
#pragma once

#include <string>

#include "accept/registry.hpp"
#include "bundle/recorded_files.hpp"
#include "cli/target.hpp"
#include "cli/accept_progress.hpp"

namespace gpuvet::cli {

struct AcceptWiring {
  bool quick = false;       // --quick: fewer, smaller copy samples; collectives on pairs and 4-GPU subsets
  std::string out_dir;      // the evidence bundle ("" none: the burn-in database stays in memory)
  AcceptLiveProgress* live = nullptr;  // burn-in table and collective sweep on a terminal; null: quiet
  bundle::RecordedFiles* recorded = nullptr;  // learns of the burn-in database created in out_dir
};

accept::StageProviders accept_stage_providers(Target& target, const AcceptWiring& wiring);

}  // namespace gpuvet::cli
