// The spec -> clause mapping: which clauses each stage decides, with what the spec states and
// where it says so. Stages built elsewhere (bench, nccl, burn-in) take their clause lists here,
// so every clause id and its wording lives in one place (docs/spec.md lists them).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "accept/accept_model.hpp"
#include "spec/spec.hpp"

namespace gpuvet::accept {

// The fixed clause ids as typed identifiers: clauses.cpp names the clauses with them and the
// stages pick the clause they decide by them. Collective clauses are collectives.<op>.<n|all>.
namespace clause_id {
inline constexpr std::string_view gpu_count = "gpu.count";
inline constexpr std::string_view gpu_model = "gpu.model";
inline constexpr std::string_view gpu_same_batch = "gpu.same_batch";
inline constexpr std::string_view workload = "workload";
inline constexpr std::string_view interconnect = "interconnect";
inline constexpr std::string_view pcie = "pcie";
inline constexpr std::string_view nics = "nics";
inline constexpr std::string_view numa = "numa";
inline constexpr std::string_view gpu_memory = "gpu.memory";
inline constexpr std::string_view gpu_health = "gpu.health";
inline constexpr std::string_view bandwidth_h2d = "bandwidth.h2d";
inline constexpr std::string_view bandwidth_p2p = "bandwidth.p2p";
inline constexpr std::string_view vram = "vram";
inline constexpr std::string_view collectives_scaling = "collectives.scaling";
inline constexpr std::string_view burnin = "burnin";
}  // namespace clause_id

// collectives.<op>.<gpus|all>: the id of a busbw clause (gpus 0: all GPUs).
std::string collective_clause_id(std::string_view op, int gpus);

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
