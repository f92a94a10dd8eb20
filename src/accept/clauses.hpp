// The spec -> clause mapping: which clauses each stage decides, with what the spec states and
// where it says so. Stages built elsewhere (bench, nccl, burn-in) take their clause lists here,
// so every clause id and its wording lives in one place (docs/spec.md lists them).
#pragma once

#include <vector>

#include "accept/accept_model.hpp"
#include "spec/spec.hpp"

namespace gpuvet::accept {

// inventory: gpu.count, gpu.model, gpu.same_batch, workload
std::vector<ClauseResult> inventory_clauses(const spec::Spec& spec);
// topology: interconnect, pcie, nics
std::vector<ClauseResult> topology_clauses(const spec::Spec& spec);
// numa: numa
std::vector<ClauseResult> numa_clauses(const spec::Spec& spec);
// memory: gpu.memory, gpu.health
std::vector<ClauseResult> memory_clauses(const spec::Spec& spec);
// bandwidth: bandwidth.h2d, bandwidth.p2p (floor in GB/s, or the envelope when "auto")
std::vector<ClauseResult> bandwidth_clauses(const spec::Spec& spec);
// vram: vram (fraction of gpu.memory_gib allocatable and error-free on every GPU)
std::vector<ClauseResult> vram_clauses(const spec::Spec& spec);
// collectives: collectives.<op>.<gpus|all> (busbw floor), collectives.scaling
std::vector<ClauseResult> collectives_clauses(const spec::Spec& spec);
// burnin: burnin (duration and tolerances)
std::vector<ClauseResult> burnin_clauses(const spec::Spec& spec);

}  // namespace gpuvet::accept
