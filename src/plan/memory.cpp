// Memory per GPU and the layout search.
#include "plan/memory.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <vector>

#include "plan/published.hpp"

namespace gpuvet::plan {

namespace {

void add_reserve(MemoryBreakdown& m) {
  m.reserve = kReserveFixedGib + kReserveFraction * (m.weights + m.gradients + m.optimizer + m.activations + m.kv_cache);
}

std::vector<int> powers_of_two_up_to(int n) {
  std::vector<int> out;
  for (int v = 1; v <= n; v *= 2) out.push_back(v);
  return out;
}

}  // namespace

std::string describe(const Layout& l, Workload w) {
  if (w == Workload::infer) return fmt::format("TP {} x PP {}, {} replica{}", l.tp, l.pp, l.dp, l.dp == 1 ? "" : "s");
  const std::string ep = l.ep > 1 ? fmt::format(" (EP {})", l.ep) : "";
  return fmt::format("TP {} x PP {} x DP {}{}, ZeRO-{}", l.tp, l.pp, l.dp, ep, l.zero);
}

int micro_batches(const TrainJob& job, const Layout& l) {
  const int per_pipeline = std::max(1, l.dp) * std::max(1, job.micro_batch);
  return std::max(1, (job.global_batch + per_pipeline - 1) / per_pipeline);
}

MemoryBreakdown train_memory(const ModelSpec& model, const ParamCounts& params, const TrainJob& job, const Layout& l) {
  MemoryBreakdown m;
  // Model states, mixed-precision Adam: bf16 weights 2 + bf16 grads 2 + fp32 master, m, v 12 bytes
  // per parameter (ZeRO paper; EleutherAI cookbook calc_transformer_mem.py). MoE with expert
  // parallelism: the routed experts are split over ep ranks (and over TP, Megatron-Core's default
  // expert TP = TP), and ZeRO shards their states over the dp / ep ranks that hold the same experts.
  const double experts = l.ep > 1 ? params.routed_experts : 0;
  const double dense = (params.total - experts) / (l.tp * l.pp);
  const double expert = experts / (static_cast<double>(l.tp) * l.pp * l.ep);
  const double dp = std::max(1, l.dp);
  const double edp = std::max(1, l.expert_dp());
  auto states = [&](double bytes_per_param, int from_stage) {
    const bool sharded = l.zero >= from_stage;
    return bytes_per_param * (dense / (sharded ? dp : 1) + expert / (sharded ? edp : 1)) / kGiB;
  };
  m.weights = states(2, 3);
  // ZeRO-3 gathers each layer whole before using it: DeepSpeed's estimator keeps 4 bytes x the
  // largest layer for that (stage3.py estimate_zero3_model_states_mem_needs).
  if (l.zero >= 3) m.weights += 4 * params.largest_layer / l.tp / kGiB;
  m.gradients = states(2, 2);
  m.optimizer = states(12, 1);
  // Activations (Korthikanti et al. 2022, Transformer Math 101): s*b*h*(10 + 24/t) bytes per layer
  // with FlashAttention (the 5*a*s/(h*t) score term is never stored); full recomputation keeps the
  // 2*s*b*h layer input per layer plus one layer's full set while it is recomputed. The first
  // pipeline stage holds min(pp, micro-batches) micro-batches in flight (1F1B). fp32 logits
  // s*b*vocab*4/t on the last stage.
  const double sbh = static_cast<double>(job.seq_len) * job.micro_batch * model.hidden;
  const double full_layer = sbh * (10.0 + 24.0 / l.tp);
  const double layers_here = static_cast<double>(model.layers) / l.pp;
  const double in_flight = std::min(l.pp, micro_batches(job, l));
  const double logits = static_cast<double>(job.seq_len) * job.micro_batch * model.vocab * 4.0 / l.tp;
  m.activations_no_recompute = (full_layer * layers_here * in_flight + logits) / kGiB;
  m.activations_recompute = (2 * sbh * layers_here * in_flight + full_layer + logits) / kGiB;
  m.activations = job.recompute == Recompute::full ? m.activations_recompute : m.activations_no_recompute;
  add_reserve(m);
  return m;
}

MemoryBreakdown infer_memory(const ModelSpec& model, const ParamCounts& params, const InferJob& job, const Layout& l) {
  MemoryBreakdown m;
  m.weights = bytes(job.weights) * params.total / (l.tp * l.pp) / kGiB;
  const double kv_token = kv_bytes_per_token_per_gpu(model, l.tp, bytes(job.kv_cache)) / l.pp;
  m.kv_cache = kv_token * job.context * job.concurrent / kGiB;
  // Working activations of one 2048-token prefill chunk (hidden states, attention and MLP
  // intermediates in bf16) plus fp32 logits of the sequences sampled: an estimate.
  const double mlp = model.moe() ? static_cast<double>(model.moe_intermediate) * model.experts_per_token : model.intermediate;
  m.activations = (2048.0 * (4.0 * model.hidden + 2.0 * mlp / l.tp) * 2 + job.concurrent * model.vocab * 4.0) / kGiB;
  m.activations_no_recompute = m.activations_recompute = m.activations;
  add_reserve(m);
  return m;
}

LayoutChoice choose_layout(const ModelSpec& model, const ParamCounts& params, const Job& job, int gpus_per_node,
                           int nodes, double capacity_gib, bool respect_job) {
  const int total = gpus_per_node * nodes;
  const bool train = job.workload == Workload::train;
  std::vector<LayoutChoice> candidates;
  for (int tp : powers_of_two_up_to(gpus_per_node)) {
    if (gpus_per_node % tp != 0 || (model.heads > 0 && model.heads % tp != 0)) continue;
    const int want_tp = train ? job.train.tp : job.infer.tp;
    if (respect_job && want_tp > 0 && tp != want_tp) continue;
    for (int pp = 1; pp <= total / tp; ++pp) {
      if ((total / tp) % pp != 0 || (model.layers > 0 && pp > model.layers)) continue;
      if (respect_job && train && job.train.pp > 0 && pp != job.train.pp) continue;
      if (!train && pp > nodes) continue;  // inference pipelines only across nodes
      const int dp = total / (tp * pp);
      for (int ep : powers_of_two_up_to(train && model.moe() ? dp : 1)) {
        if (dp % ep != 0 || model.experts % ep != 0) continue;
        if (respect_job && train && job.train.ep > 0 && ep != job.train.ep) continue;
        for (int zero = 0; zero <= (train ? 3 : 0); ++zero) {
          if (respect_job && train && job.train.zero >= 0 && zero != job.train.zero) continue;
          Layout l{tp, pp, dp, zero, ep};
          LayoutChoice c{l, train ? train_memory(model, params, job.train, l) : infer_memory(model, params, job.infer, l),
                         false};
          c.fits = c.memory.total() <= capacity_gib;
          candidates.push_back(c);
        }
      }
    }
  }
  if (candidates.empty()) {
    LayoutChoice none;
    none.placed = false;
    return none;
  }
  std::stable_sort(candidates.begin(), candidates.end(), [](const LayoutChoice& a, const LayoutChoice& b) {
    const int ma = a.layout.tp * a.layout.pp;
    const int mb = b.layout.tp * b.layout.pp;
    if (ma != mb) return ma < mb;
    // ZeRO-3 gathers the weights for every micro-batch; expert parallelism's all-to-all is the
    // cheaper way to shard an MoE (Megatron-Core, DeepSeek-V3 EP64 + ZeRO-1).
    if ((a.layout.zero == 3) != (b.layout.zero == 3)) return b.layout.zero == 3;
    if (a.layout.ep != b.layout.ep) return a.layout.ep < b.layout.ep;
    if (a.layout.zero != b.layout.zero) return a.layout.zero < b.layout.zero;
    return a.layout.pp < b.layout.pp;
  });
  for (const auto& c : candidates) {
    if (c.fits) return c;
  }
  // Nothing fits: the candidate needing the least memory shows how far off it is.
  return *std::min_element(candidates.begin(), candidates.end(), [](const LayoutChoice& a, const LayoutChoice& b) {
    return a.memory.total() < b.memory.total();
  });
}

}  // namespace gpuvet::plan
