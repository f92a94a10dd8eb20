// Step time and throughput arithmetic; every term leaves one line of basis for the report.
#include "plan/step_time.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "plan/fabric.hpp"

namespace gpuvet::plan {

namespace {

double attention_width(const ModelSpec& m) {
  return static_cast<double>(m.heads) * (m.mla() ? m.qk_nope_head_dim + m.qk_rope_head_dim : m.head_dim);
}

std::string gb(double bytes) { return fmt::format("{:.3g} GB", bytes / 1e9); }

// Gradient traffic of one data-parallel group: `ranks` GPUs `stride` apart, `bytes` of gradients each.
void add_dp_traffic(StepTime& t, const Offer& offer, const Layout& l, int micro_batches, int ranks, int stride,
                    double bytes, const std::string& what) {
  if (ranks <= 1) return;
  const double ring = (ranks - 1.0) / ranks;
  if (l.zero <= 2) {
    // One all-reduce of the gradients per step (ZeRO-1/2: reduce-scatter + all-gather, same volume).
    const auto bw = group_busbw(offer, l.zero == 0 ? Collective::all_reduce : Collective::all_gather, ranks, stride);
    const double s = 2 * ring * bytes / (bw.busbw_gbps * 1e9);
    t.dp_comm += s;
    t.basis.push_back(fmt::format("{}: 2(n-1)/n x {} gradients / {:.1f} GB/s busbw = {:.3g} s ({})", what, gb(bytes),
                                  bw.busbw_gbps, s, bw.basis));
    return;
  }
  // ZeRO-3/FSDP: parameters gathered for forward and backward of every micro-batch, gradients
  // reduce-scattered once: 1.5x an all-reduce without accumulation (ZeRO paper).
  const auto bw = group_busbw(offer, Collective::all_gather, ranks, stride);
  const double passes = 2.0 * micro_batches + 1.0;
  const double s = passes * ring * bytes / (bw.busbw_gbps * 1e9);
  t.dp_comm += s;
  t.basis.push_back(fmt::format("{}, ZeRO-3: (2 x {} micro-batches + 1) x (n-1)/n x {} / {:.1f} GB/s busbw = {:.3g} s ({})",
                                what, micro_batches, gb(bytes), bw.busbw_gbps, s, bw.basis));
}

}  // namespace

double StepTime::comm_share() const {
  const double t = total_no_overlap();
  return t > 0 ? comm() / t : 0;
}

double StepTime::comm_share_overlapped() const {
  const double t = total_overlapped();
  return t > 0 ? (tp_comm + pp_comm + ep_comm + dp_exposed) / t : 0;
}

double expert_share_touched(const ModelSpec& m, int tokens) {
  if (!m.moe() || m.experts <= 0) return 1.0;
  const double k = std::min(1.0, static_cast<double>(m.experts_per_token) / m.experts);
  return 1.0 - std::pow(1.0 - k, std::max(0, tokens));
}

double all_to_all_seconds(const Offer& offer, const Layout& l, double bytes) {
  if (l.ep <= 1) return 0;
  const auto path = all_to_all_path(offer, l.ep, l.tp);
  const double intra_bytes = bytes * (path.local_ranks - 1.0) / l.ep;
  const double inter_bytes = bytes * static_cast<double>(l.ep - path.local_ranks) / l.ep;
  const double intra = intra_bytes > 0 ? intra_bytes / (path.intra_gbps * 1e9) : 0;
  const double inter = inter_bytes > 0 ? inter_bytes / (path.inter_gbps * 1e9) : 0;
  return std::max(intra, inter) + kCollectiveLatencyS;
}

double train_flops_per_token(const ModelSpec& model, const ParamCounts& params, const TrainJob& job) {
  const bool rc = job.recompute == Recompute::full;
  const double dense = (rc ? 8.0 : 6.0) * params.active;
  const double attention = (rc ? 16.0 : 12.0) * model.layers * attention_width(model) * job.seq_len;
  return dense + attention;
}

StepTime train_step(const ModelSpec& model, const ParamCounts& params, const TrainJob& job, const Layout& l,
                    const Offer& offer, double flops_per_gpu_s) {
  StepTime t;
  const double tokens = static_cast<double>(job.global_batch) * job.seq_len;
  const double flops = train_flops_per_token(model, params, job) * tokens;
  t.compute = flops / (offer.gpus() * flops_per_gpu_s);
  t.basis.push_back(fmt::format("compute: {:.3g} FLOPs/token x {:.3g} tokens / ({} GPUs x {:.0f} TFLOP/s) = {:.3g} s",
                                flops / tokens, tokens, offer.gpus(), flops_per_gpu_s / 1e12, t.compute));
  const int m = micro_batches(job, l);
  if (l.pp > 1) {
    t.bubble = (l.pp - 1.0) / m * t.compute;
    t.basis.push_back(fmt::format("pipeline bubble: (pp - 1) / m = {} / {} of compute = {:.3g} s", l.pp - 1, m, t.bubble));
  }
  // Data parallel: bf16 gradients of this rank's model shard. With expert parallelism the routed
  // experts' gradients are reduced apart, among the dp / ep ranks holding the same experts.
  const double experts = l.ep > 1 ? params.routed_experts : 0;
  const double shard_bytes = 2.0 * (params.total - experts) / (l.tp * l.pp);
  add_dp_traffic(t, offer, l, m, l.dp, l.tp, shard_bytes, "data parallel");
  if (experts > 0) {
    add_dp_traffic(t, offer, l, m, l.expert_dp(), l.tp * l.ep, 2.0 * experts / (l.tp * l.pp * l.ep),
                   fmt::format("expert data parallel (experts / EP {})", l.ep));
  }
  const double act_bytes = static_cast<double>(job.micro_batch) * job.seq_len * model.hidden * 2.0;
  if (l.tp > 1) {
    // Megatron-LM: 4 all-reduces of b*s*h per layer per micro-batch (2 forward, 2 backward); 6
    // with recomputation (the forward runs twice).
    const int per_layer = job.recompute == Recompute::full ? 6 : 4;
    const auto bw = group_busbw(offer, Collective::all_reduce, l.tp, 1);
    const double count = per_layer * (static_cast<double>(model.layers) / l.pp) * m;
    t.tp_comm = count * (2.0 * (l.tp - 1) / l.tp * act_bytes / (bw.busbw_gbps * 1e9) + kCollectiveLatencyS);
    t.basis.push_back(fmt::format("tensor parallel: {:.0f} all-reduces x 2(t-1)/t x {} / {:.1f} GB/s busbw = {:.3g} s ({})",
                                  count, gb(act_bytes), bw.busbw_gbps, t.tp_comm, bw.basis));
  }
  if (l.pp > 1) {
    const bool across = offer.nodes > 1;
    const auto bw = p2p_rate(offer, across);
    const double send = act_bytes / l.tp;
    t.pp_comm = 2.0 * m * send / (bw.busbw_gbps * 1e9);
    t.basis.push_back(fmt::format("pipeline: 2 x {} micro-batches x {} / {:.1f} GB/s = {:.3g} s ({})", m, gb(send),
                                  bw.busbw_gbps, t.pp_comm, bw.basis));
  }
  if (l.ep > 1 && model.moe_layers() > 0) {
    // MoE token dispatch and combine: two all-to-alls per MoE layer forward, two again backward
    // (three forward passes' worth with recomputation). Each GPU sends its share of the micro-batch's
    // tokens (b x s / tp; sequence parallel splits them over TP) top-k times, hidden x 2 bytes each.
    const int per_layer = job.recompute == Recompute::full ? 6 : 4;
    const double count = per_layer * (static_cast<double>(model.moe_layers()) / l.pp) * m;
    const double tokens_per_gpu = static_cast<double>(job.micro_batch) * job.seq_len / l.tp;
    const double bytes = tokens_per_gpu * model.hidden * 2.0 * model.experts_per_token;
    const double each = all_to_all_seconds(offer, l, bytes);
    t.ep_comm = count * each;
    t.basis.push_back(fmt::format("expert parallel: {:.0f} all-to-alls x {:.3g} s ({:.0f} tokens x {} hidden x 2 bytes x "
                                  "top-{} = {}, (EP-1)/EP of it leaves the GPU) = {:.3g} s ({})",
                                  count, each, tokens_per_gpu, model.hidden, model.experts_per_token, gb(bytes),
                                  t.ep_comm, all_to_all_path(offer, l.ep, l.tp).basis));
  }
  t.dp_exposed = std::max(0.0, t.dp_comm - t.compute);
  return t;
}

InferThroughput infer_throughput(const ModelSpec& model, const ParamCounts& params, const InferJob& job,
                                 const Layout& l, const Offer& offer, double flops_per_gpu_s, double memory_gbps) {
  InferThroughput r;
  std::string experts_basis;
  const int gpus = l.tp * l.pp;
  // A decode step reads the dense weights and the experts its tokens were routed to: with uniform
  // routing of `concurrent` tokens to top-k of E experts, E x (1 - (1 - k/E)^concurrent) per layer.
  const double touched = expert_share_touched(model, job.concurrent);
  const double weights = bytes(job.weights) * (params.total - params.routed_experts * (1 - touched)) / gpus;
  if (model.moe()) {
    experts_basis = fmt::format("MoE decode: {} tokens routed to top-{} of {} experts touch {:.0f} % of each layer's "
                                  "experts (uniform routing: 1 - (1 - k/E)^tokens); only those are read",
                                  job.concurrent, model.experts_per_token, model.experts, touched * 100);
  }
  const double kv = kv_bytes_per_token_per_gpu(model, l.tp, bytes(job.kv_cache)) / l.pp * job.context * job.concurrent;
  r.decode_bytes_per_gpu = weights + kv;
  StepTime& t = r.decode_step;
  if (!experts_basis.empty()) t.basis.push_back(experts_basis);
  const double t_memory = r.decode_bytes_per_gpu / (memory_gbps * 1e9);
  const double decode_flops = job.concurrent * (2.0 * params.active + 4.0 * model.layers * attention_width(model) * job.context) / gpus;
  const double t_flops = decode_flops / flops_per_gpu_s;
  r.memory_bound = t_memory >= t_flops;
  t.compute = std::max(t_memory, t_flops);
  t.basis.push_back(fmt::format("decode: max(({} weights + {} KV cache at full context) / {:.0f} GB/s, {:.3g} FLOPs / "
                                "{:.0f} TFLOP/s) = {:.3g} s per step ({}-bound)",
                                gb(weights), gb(kv), memory_gbps, decode_flops, flops_per_gpu_s / 1e12, t.compute,
                                r.memory_bound ? "memory" : "compute"));
  if (l.tp > 1) {
    const auto bw = group_busbw(offer, Collective::all_reduce, l.tp, 1);
    const double bytes_each = static_cast<double>(job.concurrent) * model.hidden * 2.0;
    const double count = 2.0 * model.layers / l.pp;
    t.tp_comm = count * (kCollectiveLatencyS + 2.0 * (l.tp - 1) / l.tp * bytes_each / (bw.busbw_gbps * 1e9));
    t.basis.push_back(fmt::format("tensor parallel: {:.0f} all-reduces x (10 us + {} / {:.1f} GB/s) = {:.3g} s ({})", count,
                                  gb(bytes_each), bw.busbw_gbps, t.tp_comm, bw.basis));
  }
  t.dp_exposed = 0;
  const double step = t.total_no_overlap();
  r.decode_tokens_per_s_replica = job.concurrent / step;
  r.decode_tokens_per_s_per_gpu = r.decode_tokens_per_s_replica / gpus;
  const double prefill_flops = 2.0 * params.active + 4.0 * model.layers * attention_width(model) * job.context;
  r.prefill_tokens_per_s_per_gpu = flops_per_gpu_s / prefill_flops;
  return r;
}

}  // namespace gpuvet::plan
