// The stages of `gpuvet accept`, in the order they run: quick gates first (inventory, topology,
// NUMA, memory: seconds, from the machine picture), then bandwidth, VRAM, collectives and
// burn-in last. The measuring stages plug in through StageProviders; a stage not provided
// reports every clause as not run (which makes the verdict incomplete, never pass).
#pragma once

#include <memory>
#include <vector>

#include "accept/stage.hpp"

namespace gpuvet::accept {

// Measuring stages built by the CLI for this machine (live CUDA probes or the simulator). Null:
// not built into this binary yet, or not available here.
struct StageProviders {
  std::unique_ptr<Stage> bandwidth;    // decides bandwidth_clauses()
  std::unique_ptr<Stage> vram;         // decides vram_clauses()
  std::unique_ptr<Stage> collectives;  // decides collectives_clauses()
  std::unique_ptr<Stage> burnin;       // decides burnin_clauses(); long_running() true
};

std::vector<std::unique_ptr<Stage>> make_stages(StageProviders providers);

}  // namespace gpuvet::accept
