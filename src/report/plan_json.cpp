// gpuvet plan --json: schema gpuvet.plan/1 (docs/json.md). Unknown money is null, never 0.
#include <nlohmann/json.hpp>

#include "report/finding_json.hpp"
#include "report/plan_report.hpp"

namespace gpuvet::report {

namespace {

using nlohmann::ordered_json;

ordered_json opt(const std::optional<double>& v) { return v ? ordered_json(*v) : ordered_json(nullptr); }

ordered_json layout_json(const plan::Layout& l) {
  return {{"tp", l.tp}, {"pp", l.pp}, {"dp", l.dp}, {"zero", l.zero}, {"ep", l.ep}};
}

ordered_json model_json(const plan::Plan& p) {
  const auto& m = p.model;
  ordered_json j = {{"name", m.name},
                    {"source", m.source},
                    {"params_total", p.params.total},
                    {"params_active", p.params.active},
                    {"layers", m.layers},
                    {"hidden", m.hidden},
                    {"heads", m.heads},
                    {"kv_heads", m.kv_heads},
                    {"head_dim", m.head_dim},
                    {"intermediate", m.intermediate},
                    {"vocab", m.vocab},
                    {"experts", m.experts},
                    {"experts_per_token", m.experts_per_token},
                    {"kv_lora_rank", m.kv_lora_rank},
                    {"estimated", m.estimated}};
  return j;
}

ordered_json job_json(const plan::Job& job) {
  ordered_json j = {{"workload", plan::to_string(job.workload)}};
  if (job.workload == plan::Workload::train) {
    const auto& t = job.train;
    j["tokens"] = t.tokens;
    j["seq_len"] = t.seq_len;
    j["global_batch"] = t.global_batch;
    j["micro_batch"] = t.micro_batch;
    j["precision"] = plan::to_string(t.precision);
    j["recompute"] = t.recompute == plan::Recompute::full ? "full" : "none";
  } else {
    const auto& i = job.infer;
    j["weights"] = plan::to_string(i.weights);
    j["kv_cache"] = plan::to_string(i.kv_cache);
    j["context"] = i.context;
    j["concurrent"] = i.concurrent;
    j["tokens"] = opt(i.tokens);
  }
  j["mfu"] = opt(job.mfu);
  j["availability"] = job.availability;
  j["overlap"] = job.overlap;
  return j;
}

ordered_json offer_json(const plan::OfferPlan& p, const plan::Plan& plan) {
  const auto& o = p.offer;
  const auto& mem = p.memory;
  ordered_json j = {{"rank", p.rank},
                    {"name", o.name},
                    {"source", o.source},
                    {"summary", plan::offer_summary(o)},
                    {"gpu", o.gpu.id},
                    {"gpus_per_node", o.gpus_per_node},
                    {"nodes", o.nodes},
                    {"interconnect", core::to_string(o.interconnect)},
                    {"measured_from", o.measured ? ordered_json(o.measured->source) : ordered_json(nullptr)},
                    {"price_per_gpu_hour", opt(p.price_per_gpu_hour)},
                    {"fits", p.fits},
                    {"layout", layout_json(p.layout)},
                    {"smallest_fit", p.smallest_fit ? layout_json(*p.smallest_fit) : ordered_json(nullptr)},
                    {"nodes_to_fit", p.nodes_to_fit ? ordered_json(*p.nodes_to_fit) : ordered_json(nullptr)},
                    {"capacity_gib", p.capacity_gib},
                    {"memory_per_gpu_gib", mem.total()},
                    {"memory",
                     {{"weights", mem.weights},
                      {"gradients", mem.gradients},
                      {"optimizer", mem.optimizer},
                      {"activations", mem.activations},
                      {"activations_no_recompute", mem.activations_no_recompute},
                      {"activations_recompute", mem.activations_recompute},
                      {"kv_cache", mem.kv_cache},
                      {"reserve", mem.reserve}}},
                    {"peak_tflops", p.peak_tflops},
                    {"utilisation", p.utilisation},
                    {"utilisation_source", p.utilisation_source},
                    {"step_time_s",
                     {{"compute", p.step.compute},
                      {"bubble", p.step.bubble},
                      {"dp_comm", p.step.dp_comm},
                      {"tp_comm", p.step.tp_comm},
                      {"pp_comm", p.step.pp_comm},
                      {"ep_comm", p.step.ep_comm},
                      {"dp_exposed", p.step.dp_exposed},
                      {"total", p.step.total_no_overlap()},
                      {"total_overlapped", p.step.total_overlapped()}}},
                    {"comm_share", p.step.comm_share()},
                    {"comm_share_overlapped", p.step.comm_share_overlapped()},
                    {"days", opt(p.days)},
                    {"gpu_hours", opt(p.gpu_hours)},
                    {"cost", opt(p.cost)},
                    {"cost_per_million_tokens", opt(p.cost_per_million_tokens)}};
  if (plan.job.workload == plan::Workload::train) {
    j["tokens_per_step"] = p.tokens_per_step;
  } else if (p.infer) {
    j["decode_tokens_per_s_per_gpu"] = p.infer->decode_tokens_per_s_per_gpu;
    j["decode_tokens_per_s_replica"] = p.infer->decode_tokens_per_s_replica;
    j["prefill_tokens_per_s_per_gpu"] = p.infer->prefill_tokens_per_s_per_gpu;
    j["decode_memory_bound"] = p.infer->memory_bound;
  }
  j["basis"] = p.step.basis;
  ordered_json findings = ordered_json::array();
  for (const auto& f : p.findings) findings.push_back(finding_json(f));
  j["findings"] = findings;
  j["reason"] = p.reason;
  return j;
}

}  // namespace

std::string render_plan_json(const plan::Plan& plan) {
  ordered_json j = {{"schema", plan::kPlanSchema}, {"model", model_json(plan)}, {"job", job_json(plan.job)}};
  j["kv_bytes_per_token"] = plan.kv_bytes_per_token;
  j["currency"] = plan.currency;
  ordered_json offers = ordered_json::array();
  for (const auto& p : plan.offers) offers.push_back(offer_json(p, plan));
  j["offers"] = offers;
  j["assumptions"] = plan.assumptions;
  return j.dump(2) + "\n";
}

}  // namespace gpuvet::report
