// make_plan: one OfferPlan per offer, then ranking and warnings.
#include "plan/plan.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "plan/published.hpp"

namespace gpuvet::plan {

namespace {

// A healthy GPU's dense GEMM reaches ~80 % of its peak (MAMF: H100 SXM 80.3 %, A100 86.9 %;
// perf-anchors 5.2); a measured GEMM below that lowers the achievable rate in proportion.
constexpr double kHealthyGemmShare = 0.80;

void plan_capacity(OfferPlan& p) {
  const Offer& o = p.offer;
  if (o.measured && o.measured->memory_gib) {
    p.capacity_gib = *o.measured->memory_gib;
    p.capacity_source = "measured, " + o.measured->source;
  } else if (o.gpu.memory_reported_mib) {
    p.capacity_gib = static_cast<double>(*o.gpu.memory_reported_mib) / 1024.0;
    p.capacity_source = "what a healthy " + o.gpu.display_name + " reports (profiles/gpus.yaml)";
  } else {
    p.capacity_gib = o.gpu.memory_gib;
    p.capacity_source = o.gpu.display_name + " as sold (profiles/gpus.yaml)";
  }
}

void plan_rate(OfferPlan& p, const Job& job) {
  const Offer& o = p.offer;
  const Precision precision = job.workload == Workload::train ? job.train.precision : Precision::bf16;
  const Figure peak = peak_tflops(o.gpu, precision);
  p.peak_tflops = peak.value;
  p.peak_source = peak.source;
  if (o.measured && o.measured->tflops && peak.value > 0) {
    const double share = std::min(1.0, *o.measured->tflops / (kHealthyGemmShare * peak.value));
    if (share < 1.0) {
      p.peak_tflops = peak.value * share;
      p.peak_source = fmt::format("{:g} x measured GEMM {:.0f} / healthy {:.0f} TFLOP/s (80 % of peak, MAMF; {})",
                                  peak.value, *o.measured->tflops, kHealthyGemmShare * peak.value, o.measured->source);
    } else {
      p.peak_source += fmt::format("; measured GEMM {:.0f} TFLOP/s is healthy ({})", *o.measured->tflops, o.measured->source);
    }
  }
  if (o.mfu) {
    p.utilisation = *o.mfu;
    p.utilisation_source = "stated for this offer (" + o.source + ")";
  } else if (job.mfu) {
    p.utilisation = *job.mfu;
    p.utilisation_source = "stated (--mfu)";
  } else {
    const Figure f = default_mfu(o.gpu, precision);
    p.utilisation = f.value;
    p.utilisation_source = f.source;
  }
  const Figure eff = decode_bandwidth_efficiency();
  p.memory_gbps = o.gpu.memory_bandwidth_gbps ? *o.gpu.memory_bandwidth_gbps * eff.value : 0;
}

void plan_train(OfferPlan& p, const Plan& plan) {
  const auto& job = plan.job;
  const double rate = p.utilisation * p.peak_tflops * 1e12;
  p.tokens_per_step = static_cast<double>(job.train.global_batch) * job.train.seq_len;
  p.step = train_step(plan.model, plan.params, job.train, p.layout, p.offer, rate);
  const double step_s = job.overlap ? p.step.total_overlapped() : p.step.total_no_overlap();
  const double steps = job.train.tokens / p.tokens_per_step;
  p.days = steps * step_s / 86400.0 / job.availability;
  p.gpu_hours = *p.days * 24.0 * p.offer.gpus();
  if (p.price_per_gpu_hour) {
    p.cost = *p.gpu_hours * *p.price_per_gpu_hour;
    p.cost_per_million_tokens = *p.cost / job.train.tokens * 1e6;
  }
}

void plan_infer(OfferPlan& p, const Plan& plan) {
  const auto& job = plan.job;
  const double rate = p.utilisation * p.peak_tflops * 1e12;
  p.infer = infer_throughput(plan.model, plan.params, job.infer, p.layout, p.offer, rate, p.memory_gbps);
  p.step = p.infer->decode_step;
  const double total_tps = p.infer->decode_tokens_per_s_per_gpu * p.offer.gpus();
  if (p.price_per_gpu_hour && total_tps > 0) {
    p.cost_per_million_tokens = *p.price_per_gpu_hour * p.offer.gpus() / (total_tps * 3600.0) * 1e6;
  }
  if (job.infer.tokens && total_tps > 0) {
    p.days = *job.infer.tokens / total_tps / 86400.0 / job.availability;
    p.gpu_hours = *p.days * 24.0 * p.offer.gpus();
    if (p.price_per_gpu_hour) p.cost = *p.gpu_hours * *p.price_per_gpu_hour;
  }
}

std::vector<std::string> assumptions(const ModelSpec& model, const Job& job) {
  std::vector<std::string> a = {
      "GB = 1e9 bytes, GiB = 2^30 bytes; days are wall-clock days of the whole run.",
      std::string(kReserveSource) + " is added to every GPU's memory.",
  };
  if (job.workload == Workload::train) {
    a.emplace_back("Model states, mixed-precision Adam: 2 + 2 + 12 bytes per parameter, divided by the data-parallel size "
                   "for optimizer (ZeRO-1), gradients (ZeRO-2) and weights (ZeRO-3 / FSDP) (ZeRO paper; EleutherAI cookbook).");
    a.emplace_back("Activations: s*b*h*(10 + 24/t) bytes per layer with FlashAttention, 2*s*b*h with full recomputation "
                   "(Korthikanti et al. 2022); min(pp, micro-batches) micro-batches in flight; fp32 logits.");
    a.emplace_back("Compute: (6N or 8N with recomputation + attention 12*L*d*s) FLOPs per token at the utilisation shown of "
                   "the dense peak; published MFU already carries its own run's exposed communication.");
    a.emplace_back("Communication: ring all-reduce 2(n-1)/n x S / busbw, all-gather/reduce-scatter (n-1)/n x S / busbw "
                   "(nccl-tests PERFORMANCE.md); TP 4 all-reduces of b*s*h per layer per micro-batch (Megatron-LM); "
                   "ZeRO-3 gathers parameters for every micro-batch; pipeline bubble (p-1)/m.");
    a.emplace_back(job.overlap ? "Overlap: data-parallel traffic hides behind compute (DDP buckets, FSDP prefetch); tensor- "
                                 "and pipeline-parallel traffic is exposed. Days use the overlapped step."
                               : "No overlap: days use compute + bubble + all communication.");
    if (model.moe()) {
      a.emplace_back("MoE: compute counts the active parameters (routed top-k + shared experts). Expert parallelism (EP) "
                     "splits the routed experts over EP of the data-parallel ranks (experts / EP per GPU; their gradients "
                     "and ZeRO shards over DP / EP ranks). Token dispatch and combine: 4 all-to-alls per MoE layer per "
                     "micro-batch (6 with recomputation) of tokens x hidden x 2 bytes x top-k per GPU, (EP-1)/EP of it "
                     "leaving the GPU, over NVLink/PCIe inside a node and one NIC's share between nodes, not overlapped.");
      a.emplace_back("MoE, left out: router load imbalance and the capacity factor (tokens dropped or padded), "
                     "node-limited routing and FP8 dispatch (DeepSeek-V3 sends less), overlap of all-to-all with compute "
                     "(DualPipe), expert activations beyond a dense layer's, and expert parallelism at inference "
                     "(experts are split by TP as vLLM does by default).");
    }
  } else {
    a.emplace_back("KV cache as vLLM allocates it: 2 x layers x max(1, kv_heads / tp) x head_dim x dtype bytes per token "
                   "(1 latent for MLA), for every concurrent sequence at full context.");
    a.emplace_back("Decode reads all weights and the KV cache once per step at 85 % of HBM bandwidth; prefill is "
                   "compute-bound at the utilisation shown; TP all-reduces cost 10 us each plus their bytes.");
    if (model.moe()) {
      a.emplace_back("MoE decode reads the dense weights and only the experts the step's tokens reach: with uniform "
                     "routing 1 - (1 - k/E)^sequences of each layer's experts (router skew reads fewer, and a real "
                     "engine may read more); experts are split by TP, expert parallelism at inference is not modelled.");
    }
  }
  return a;
}

}  // namespace

Plan make_plan(const ModelSpec& model, const Job& job, const std::vector<Offer>& offers) {
  Plan plan;
  plan.model = model;
  plan.params = count_params(model);
  plan.job = job;
  plan.kv_bytes_per_token = kv_bytes_per_token_per_gpu(model, 1, bytes(job.infer.kv_cache));
  plan.assumptions = assumptions(model, job);
  for (const auto& offer : offers) {
    OfferPlan p;
    p.offer = offer;
    p.price_per_gpu_hour = offer.gpu_hour_price();
    plan_capacity(p);
    plan_rate(p, job);
    const auto chosen = choose_layout(model, plan.params, job, offer.gpus_per_node, offer.nodes, p.capacity_gib, true);
    p.layout = chosen.layout;
    p.memory = chosen.memory;
    p.fits = chosen.fits;
    const auto smallest = choose_layout(model, plan.params, job, offer.gpus_per_node, offer.nodes, p.capacity_gib, false);
    if (smallest.fits) p.smallest_fit = smallest.layout;
    for (int nodes = offer.nodes + 1; !smallest.fits && nodes <= 64; ++nodes) {
      if (choose_layout(model, plan.params, job, offer.gpus_per_node, nodes, p.capacity_gib, false).fits) {
        p.nodes_to_fit = nodes;
        break;
      }
    }
    if (job.workload == Workload::train) {
      plan_train(p, plan);
    } else {
      plan_infer(p, plan);
    }
    plan.offers.push_back(std::move(p));
  }
  for (auto& p : plan.offers) p.findings = plan_findings(plan, p);
  for (const auto& offer : offers) {
    if (offer.gpu_hour_price()) {
      plan.currency = offer.currency;
      break;
    }
  }
  rank_offers(plan.offers, job.workload, plan.currency);
  return plan;
}

}  // namespace gpuvet::plan
