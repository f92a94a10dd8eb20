// gpuvet plan as terminal text: the ranking table, then each offer's memory and arithmetic.
#include <fmt/format.h>

#include "report/plan_report.hpp"
#include "report/text_table.hpp"
#include "report/text_wrap.hpp"

namespace gpuvet::report {

std::string plan_money(const std::optional<double>& value) {
  if (!value) return "unknown";
  if (*value >= 100) return fmt::format("{:.0f}", *value);
  return fmt::format("{:.3g}", *value);
}

std::string plan_percent(double share) { return fmt::format("{:.0f} %", share * 100); }

namespace {

std::string header(const plan::Plan& p) {
  const bool train = p.job.workload == plan::Workload::train;
  std::string out = fmt::format("Model: {} ({:.1f}B parameters{}); {}\n", p.model.name, p.params.total / 1e9,
                                p.model.moe() ? fmt::format(", {:.1f}B active", p.params.active / 1e9) : "", p.model.source);
  if (!p.model.estimated.empty()) out += "  architecture estimated from the parameter count (labelled in --json)\n";
  if (train) {
    const auto& t = p.job.train;
    out += fmt::format("Job: train {:.3g} tokens, sequence {}, global batch {} x {} tokens, {}{}\n", t.tokens, t.seq_len,
                       t.global_batch, t.seq_len, plan::to_string(t.precision),
                       t.recompute == plan::Recompute::full ? ", full recomputation" : "");
  } else {
    const auto& i = p.job.infer;
    out += fmt::format("Job: serve, {} weights, {} KV cache ({:.0f} KiB per token), context {}, {} concurrent sequences\n",
                       plan::to_string(i.weights), plan::to_string(i.kv_cache), p.kv_bytes_per_token / 1024, i.context,
                       i.concurrent);
  }
  return out;
}

}  // namespace

std::string render_plan_text(const plan::Plan& p) {
  const bool train = p.job.workload == plan::Workload::train;
  std::string out = header(p) + "\n";
  TextTable table(train ? std::vector<std::string>{"#", "Offer", "Fits", "Layout", "GiB/GPU", "Comm", "Days",
                                                   "Cost " + p.currency, "Per M tokens"}
                        : std::vector<std::string>{"#", "Offer", "Fits", "Layout", "GiB/GPU", "Comm", "Tok/s/GPU",
                                                   "Prefill tok/s/GPU", p.currency + " per M tokens"});
  for (const auto& o : p.offers) {
    std::vector<std::string> row = {std::to_string(o.rank), o.offer.name, o.fits ? "yes" : "NO",
                                    plan::describe(o.layout, p.job.workload),
                                    fmt::format("{:.1f} / {:.1f}", o.memory.total(), o.capacity_gib),
                                    plan_percent(o.step.comm_share_overlapped())};
    if (train) {
      row.push_back(o.days ? fmt::format("{:.1f}", *o.days) : "n/a");
      row.push_back(plan_money(o.cost));
    } else {
      row.push_back(o.infer ? fmt::format("{:.0f}", o.infer->decode_tokens_per_s_per_gpu) : "n/a");
      row.push_back(o.infer ? fmt::format("{:.0f}", o.infer->prefill_tokens_per_s_per_gpu) : "n/a");
    }
    row.push_back(plan_money(o.cost_per_million_tokens));
    table.add_row(row);
  }
  out += table.render() + "\n";
  for (const auto& o : p.offers) {
    out += fmt::format("{}. {}\n   {}\n", o.rank, o.reason, plan::offer_summary(o.offer));
    const auto& m = o.memory;
    out += fmt::format("   memory per GPU (GiB): weights {:.1f}, gradients {:.1f}, optimizer {:.1f}, activations {:.1f} "
                       "({:.1f} without / {:.1f} with recomputation), KV cache {:.1f}, reserve {:.1f} = {:.1f} of {:.1f}\n",
                       m.weights, m.gradients, m.optimizer, m.activations, m.activations_no_recompute,
                       m.activations_recompute, m.kv_cache, m.reserve, m.total(), o.capacity_gib);
    out += fmt::format("   smallest layout that fits: {}\n",
                       o.smallest_fit ? plan::describe(*o.smallest_fit, p.job.workload)
                       : o.nodes_to_fit ? fmt::format("none on {} node(s); it fits on {} nodes", o.offer.nodes, *o.nodes_to_fit)
                                        : "none");
    out += fmt::format("   utilisation {:.0f} % of {:.0f} TFLOP/s ({})\n", o.utilisation * 100, o.peak_tflops,
                       o.utilisation_source);
    for (const auto& b : o.step.basis) out += "   " + b + "\n";
    out += fmt::format("   communication {} of the step without overlap, {} with\n", plan_percent(o.step.comm_share()),
                       plan_percent(o.step.comm_share_overlapped()));
    for (const auto& f : o.findings) out += fmt::format("   [{}] {}: {}\n", core::to_string(f.severity), f.code, f.message);
  }
  out += "\nAssumptions:\n";
  for (const auto& a : p.assumptions) out += "- " + a + "\n";
  return fit_lines(out);
}

}  // namespace gpuvet::report
