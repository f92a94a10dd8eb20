// Time per training step, and inference throughput, on one offer with one layout (plan/).
// Compute at a utilisation of the dense peak; communication from the collective volumes of the
// layout over the offer's busbw (plan/fabric.hpp); the pipeline bubble. Formulas: monitor-planner.md
// B1 (Megatron-LM SC21, ZeRO paper, nccl-tests PERFORMANCE.md), llm-foundry's attention FLOPs. Pure.
#pragma once

#include <string>
#include <vector>

#include "plan/job.hpp"
#include "plan/memory.hpp"
#include "plan/model.hpp"
#include "plan/offer.hpp"

namespace gpuvet::plan {

struct StepTime {  // seconds per optimizer step (training) or per decode step (inference)
  double compute = 0;
  double bubble = 0;
  double dp_comm = 0;     // gradient all-reduce, or ZeRO's reduce-scatter and gathers
  double tp_comm = 0;     // tensor-parallel all-reduces
  double pp_comm = 0;     // pipeline sends
  double ep_comm = 0;     // MoE expert parallel: token dispatch and combine all-to-alls
  double dp_exposed = 0;  // dp_comm not hidden behind compute (with overlap)
  [[nodiscard]] double comm() const { return dp_comm + tp_comm + pp_comm + ep_comm; }
  [[nodiscard]] double total_no_overlap() const { return compute + bubble + comm(); }
  [[nodiscard]] double total_overlapped() const { return compute + bubble + tp_comm + pp_comm + ep_comm + dp_exposed; }
  // T_comm / (T_comp + T_bubble + T_comm), without and with overlap.
  [[nodiscard]] double comm_share() const;
  [[nodiscard]] double comm_share_overlapped() const;
  std::vector<std::string> basis;  // one line per term: its arithmetic and the busbw used
};

// FLOPs per trained token: 6N (8N with full recomputation) plus attention 12*L*d*s (16 with
// recomputation; llm-foundry scripts/train/benchmarking/README.md), N the active parameters.
double train_flops_per_token(const ModelSpec& model, const ParamCounts& params, const TrainJob& job);

// Seconds of one MoE all-to-all (dispatch or combine) on `layout`'s expert-parallel group: each
// GPU sends `bytes` (its tokens x hidden x 2 bytes x top-k), (ep - 1) / ep of it to other GPUs;
// the part to GPUs of its node and the part to other nodes move at once, the slower sets the time.
double all_to_all_seconds(const Offer& offer, const Layout& layout, double bytes);

// Share of an MoE layer's routed experts that `tokens` tokens touch, each routed to top-k of E
// uniformly: 1 - (1 - k/E)^tokens (1 for dense models). Decode reads only those experts' weights.
double expert_share_touched(const ModelSpec& model, int tokens);

StepTime train_step(const ModelSpec& model, const ParamCounts& params, const TrainJob& job, const Layout& layout,
                    const Offer& offer, double flops_per_gpu_s);

struct InferThroughput {
  StepTime decode_step;               // one token for every concurrent sequence of a replica
  double decode_bytes_per_gpu = 0;    // weights + KV cache read per decode step
  double decode_tokens_per_s_replica = 0;
  double decode_tokens_per_s_per_gpu = 0;
  double prefill_tokens_per_s_per_gpu = 0;
  bool memory_bound = true;
};

InferThroughput infer_throughput(const ModelSpec& model, const ParamCounts& params, const InferJob& job,
                                 const Layout& layout, const Offer& offer, double flops_per_gpu_s,
                                 double memory_gbps);

// Per collective launch on 8 GPUs: ~10-25 us (perf-anchors.md 2.4); the low end, in seconds.
inline constexpr double kCollectiveLatencyS = 10e-6;

}  // namespace gpuvet::plan
