// Memory per GPU of a training or inference layout, broken down, and the smallest layout that
// fits an offer (plan/). Formulas: ZeRO paper / EleutherAI cookbook (model states), Korthikanti et
// al. 2022 via Transformer Math 101 (activations), vLLM (KV cache); monitor-planner.md B1. Pure.
#pragma once

#include <optional>
#include <string>

#include "plan/job.hpp"
#include "plan/model.hpp"

namespace gpuvet::plan {

inline constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

struct Layout {
  int tp = 1;    // tensor parallel (inside a node)
  int pp = 1;    // pipeline stages
  int dp = 1;    // data-parallel replicas (training) or model replicas (inference)
  int zero = 0;  // ZeRO stage 0-3 (FSDP = 3); training only
  // Expert parallel (MoE training): the routed experts split over `ep` of the dp ranks (ep divides
  // dp and the expert count); each expert then has dp / ep data-parallel replicas.
  int ep = 1;
  [[nodiscard]] int expert_dp() const { return dp / (ep > 0 ? ep : 1); }
};
std::string describe(const Layout& layout, Workload workload);

struct MemoryBreakdown {  // GiB per GPU
  double weights = 0;
  double gradients = 0;
  double optimizer = 0;
  double activations = 0;               // as the job runs (with or without recomputation)
  double activations_no_recompute = 0;
  double activations_recompute = 0;
  double kv_cache = 0;
  double reserve = 0;                   // CUDA context, NCCL buffers, fragmentation
  [[nodiscard]] double total() const { return weights + gradients + optimizer + activations + kv_cache + reserve; }
};

// Micro-batches each pipeline runs per optimizer step: global batch / (dp x micro batch), at least 1.
int micro_batches(const TrainJob& job, const Layout& layout);

MemoryBreakdown train_memory(const ModelSpec& model, const ParamCounts& params, const TrainJob& job, const Layout& layout);
MemoryBreakdown infer_memory(const ModelSpec& model, const ParamCounts& params, const InferJob& job, const Layout& layout);

struct LayoutChoice {
  Layout layout;
  MemoryBreakdown memory;
  bool fits = false;
  bool placed = true;  // false: no layout honours the job's fixed tp/pp/ep/zero on these GPUs
};

// The least sharded layout that fits `capacity_gib` on `gpus_per_node` x `nodes` GPUs, in the
// order: fewest model-parallel GPUs (tp x pp), then ZeRO-0..2 before ZeRO-3, then the smallest
// expert-parallel size (MoE), then lowest ZeRO stage, then fewest pipeline stages. Fields the job fixes (tp, pp, ep, zero > -1) are kept when `respect_job` is true. Without a
// fit: the most sharded candidate, fits = false.
LayoutChoice choose_layout(const ModelSpec& model, const ParamCounts& params, const Job& job, int gpus_per_node,
                           int nodes, double capacity_gib, bool respect_job);

}  // namespace gpuvet::plan
