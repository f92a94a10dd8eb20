// Runs the rule families in a fixed order over one machine.
#include "analysis/judge.hpp"

#include "analysis/rules.hpp"

namespace gpuvet::analysis {

core::Assessment judge_machine(const core::Machine& machine, const core::Catalog& catalog,
                               const Expectations& expect) {
  RuleContext ctx{machine, catalog, expect, match_models(machine, catalog), {}};
  ctx.interconnect = classify_with_models(machine, ctx.models);
  core::Assessment out;
  out.interconnect = ctx.interconnect;
  for (auto* rule : {check_interconnect, check_inventory, check_model_claim, check_memory, check_card_class, check_numa, check_links,
                     check_nics, check_health, check_events,
                     check_nvlink_counters, check_mig}) {
    auto findings = rule(ctx);
    out.findings.insert(out.findings.end(), std::make_move_iterator(findings.begin()),
                        std::make_move_iterator(findings.end()));
  }
  out.unverified = unverified_expectations(ctx);
  // A verdict on part of the machine is no pass: GPUs the input names without showing them, and
  // parts of the input that are missing (a collect file cut before its end).
  if (auto unseen = gpus_not_seen(ctx)) out.unverified.push_back(std::move(*unseen));
  out.unverified.insert(out.unverified.end(), machine.not_read.begin(), machine.not_read.end());
  return out;
}

}  // namespace gpuvet::analysis
