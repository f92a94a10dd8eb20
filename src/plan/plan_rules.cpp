// Rules of thumb from the sizing guides, as findings on a planned offer: a model that does not
// fit, a large model on a fabric the guides rule out, inference cards for training, and a model
// that fits only by sharding over a slow link (monitor-planner.md B1/B2; issue 15).
#include <fmt/format.h>

#include "core/finding_codes.hpp"
#include "plan/fabric.hpp"
#include "plan/plan.hpp"

namespace gpuvet::plan {

namespace {

using core::InterconnectClass;
using core::Severity;
namespace code = core::code;

core::Finding finding(std::string_view code, Severity severity, std::string message, std::string next_step) {
  core::Finding f;
  f.code = std::string(code);
  f.severity = severity;
  f.message = std::move(message);
  f.next_step = std::move(next_step);
  return f;
}

bool full_mesh(InterconnectClass c) {
  return c == InterconnectClass::nvswitch_full_mesh || c == InterconnectClass::nvlink_direct_full_mesh;
}

}  // namespace

std::vector<core::Finding> plan_findings(const Plan& plan, const OfferPlan& p) {
  std::vector<core::Finding> out;
  const Offer& o = p.offer;
  const bool train = plan.job.workload == Workload::train;
  const double billions = plan.params.total / 1e9;
  if (!p.fits) {
    auto f = finding(code::plan_does_not_fit, Severity::fail,
                     fmt::format("{} ({:.0f}B) does not fit {}: {:.1f} GiB per GPU at {} against {:.1f} GiB", plan.model.name,
                                 billions, offer_summary(o), p.memory.total(), describe(p.layout, plan.job.workload),
                                 p.capacity_gib),
                     p.smallest_fit ? "Use the layout that fits: " + describe(*p.smallest_fit, plan.job.workload)
                     : p.nodes_to_fit
                         ? fmt::format("It fits on {} such nodes ({} GPUs); or lower precision, recompute, shorten sequences",
                                       *p.nodes_to_fit, *p.nodes_to_fit * o.gpus_per_node)
                         : "Add GPUs or nodes, lower precision, shorter sequences or fewer concurrent sequences");
    f.evidence = {{"needed_gib", fmt::format("{:.1f}", p.memory.total())}, {"capacity_gib", fmt::format("{:.1f}", p.capacity_gib)}};
    out.push_back(std::move(f));
  }
  if (train && o.gpu.card_class != core::CardClass::training) {
    out.push_back(finding(code::card_class_mismatch, Severity::warn,
                          fmt::format("{} is a{} {} card: rented for training (no NVLink or little HBM)", o.gpu.display_name,
                                      o.gpu.card_class == core::CardClass::inference ? "n" : "",
                                      core::to_string(o.gpu.card_class)),
                          "Training at scale wants training cards with NVLink/NVSwitch and HBM."));
  }
  if (train && o.gpus() > 1) {
    std::string why;
    if (billions >= 30 && (o.interconnect == InterconnectClass::pcie_only || o.interconnect == InterconnectClass::nvlink_partial)) {
      why = fmt::format("a {:.0f}B model on {}: the guides want 8 cards in an NVLink full mesh from ~70B", billions,
                        core::to_string(o.interconnect));
    } else if (billions >= 100 && !full_mesh(o.interconnect)) {
      why = fmt::format("a {:.0f}B model without an NVLink full mesh ({})", billions, core::to_string(o.interconnect));
    } else if (billions >= 100 && o.nodes > 1 && o.nic_gbit_s * o.nics_per_node < 200.0 * o.gpus_per_node) {
      why = fmt::format("a {:.0f}B model over {} nodes with {}x {:g} Gb/s per node: the guides want InfiniBand-class "
                        "NICs (~200-400 Gb/s per GPU) from 100B",
                        billions, o.nodes, o.nics_per_node, o.nic_gbit_s);
    }
    if (!why.empty()) {
      out.push_back(finding(code::plan_interconnect_rule_of_thumb, Severity::warn, why,
                            "Prefer an NVSwitch machine (and 400 Gb/s per GPU between machines) for this size, or check "
                            "the communication share below."));
    }
  }
  const double share = p.step.comm_share_overlapped();
  // Expert parallelism beyond the NVLink group sends every MoE layer's tokens over PCIe or the network.
  const bool experts_spread = p.layout.ep > 1 && p.layout.ep * p.layout.tp > nvlink_island(o);
  const bool sharded = p.layout.zero >= 3 || p.layout.tp > nvlink_island(o) || (p.layout.pp > 1 && o.nodes > 1) ||
                       experts_spread;
  const bool slow = !full_mesh(o.interconnect) || (o.nodes > 1 && p.layout.dp > o.gpus_per_node / p.layout.tp) ||
                    (experts_spread && o.nodes > 1);
  if (p.fits && sharded && slow && share > 0.25) {
    out.push_back(finding(code::plan_sharding_over_slow_link, Severity::warn,
                          fmt::format("fits only as {}, sharded over {}: communication is {:.0f} % of each step",
                                      describe(p.layout, plan.job.workload), slow && o.nodes > 1 ? "the network" : "PCIe",
                                      share * 100),
                          "Choose GPUs with more memory, an NVLink full mesh, or faster NICs; or accept the slower run."));
  } else if (p.fits && share > 0.5) {
    out.push_back(finding(code::plan_comm_dominated, Severity::warn,
                          fmt::format("communication is {:.0f} % of each step on {}", share * 100, offer_summary(o)),
                          "Raise the batch, lower the data-parallel size, or choose a faster interconnect."));
  }
  return out;
}

}  // namespace gpuvet::plan
