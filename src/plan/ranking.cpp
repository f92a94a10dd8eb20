// Ranking the planned offers and saying why, in the words the guides use: "2.1x the days of
// offer A; cheaper per hour, 38 % dearer per run".
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "plan/plan.hpp"

namespace gpuvet::plan {

namespace {

std::string class_words(core::InterconnectClass cls) {
  switch (cls) {
    case core::InterconnectClass::nvswitch_full_mesh: return "NVSwitch full mesh";
    case core::InterconnectClass::nvlink_direct_full_mesh: return "direct NVLink mesh";
    case core::InterconnectClass::nvlink_partial: return "partial NVLink";
    case core::InterconnectClass::pcie_only: return "PCIe only";
    default: return "interconnect unknown";
  }
}

std::string percent(double share) { return fmt::format("{:.0f} %", share * 100); }

// Cost per run for training; cost per million tokens served for inference.
std::optional<double> money(const OfferPlan& p, Workload w) {
  return w == Workload::train ? p.cost : p.cost_per_million_tokens;
}

double speed(const OfferPlan& p, Workload w) {
  if (w == Workload::train) return p.days ? -*p.days : -1e300;
  return p.infer ? p.infer->decode_tokens_per_s_per_gpu * p.offer.gpus() : 0;
}

}  // namespace

std::string offer_summary(const Offer& o) {
  std::string s = o.nodes > 1 ? fmt::format("{} x {}x {}", o.nodes, o.gpus_per_node, o.gpu.display_name)
                              : fmt::format("{}x {}", o.gpus_per_node, o.gpu.display_name);
  s += ", " + class_words(o.interconnect);
  if (o.nodes > 1) s += fmt::format(", {}x {:g} Gb/s NICs per node", o.nics_per_node, o.nic_gbit_s);
  return s;
}

void rank_offers(std::vector<OfferPlan>& plans, Workload w, const std::string& currency) {
  bool all_priced = true;
  for (const auto& p : plans) {
    if (p.fits && !money(p, w)) all_priced = false;
  }
  std::stable_sort(plans.begin(), plans.end(), [&](const OfferPlan& a, const OfferPlan& b) {
    if (a.fits != b.fits) return a.fits;
    if (all_priced && money(a, w) && money(b, w) && *money(a, w) != *money(b, w)) return *money(a, w) < *money(b, w);
    return speed(a, w) > speed(b, w);
  });
  const OfferPlan* best = plans.empty() || !plans.front().fits ? nullptr : &plans.front();
  for (std::size_t i = 0; i < plans.size(); ++i) {
    OfferPlan& p = plans[i];
    p.rank = static_cast<int>(i) + 1;
    const std::string comm = fmt::format("communication {} of each step", percent(p.step.comm_share_overlapped()));
    if (!p.fits) {
      p.reason = fmt::format("{}: does not fit: {:.1f} GiB per GPU needed at {} against {:.1f} GiB", p.offer.name,
                             p.memory.total(), describe(p.layout, w), p.capacity_gib);
      continue;
    }
    if (&p == best) {
      const auto m = money(p, w);
      if (all_priced && m) {
        p.reason = w == Workload::train ? fmt::format("{}: cheapest per run ({:.0f} {}), {}", p.offer.name, *m, currency, comm)
                                        : fmt::format("{}: cheapest per million tokens ({:.3g} {}), {}", p.offer.name, *m, currency, comm);
      } else {
        p.reason = w == Workload::train ? fmt::format("{}: fewest days ({:.1f}; no price for every offer), {}", p.offer.name,
                                                      p.days.value_or(0), comm)
                                        : fmt::format("{}: most tokens per second (no price for every offer), {}",
                                                      p.offer.name, comm);
      }
      continue;
    }
    std::string r = fmt::format("{}: {}, {}", p.offer.name, class_words(p.offer.interconnect), comm);
    if (w == Workload::train && p.days && best->days && *best->days > 0) {
      r += fmt::format(", {:.1f}x the days of {}", *p.days / *best->days, best->offer.name);
    } else if (w == Workload::infer && speed(*best, w) > 0) {
      r += fmt::format(", {:.2f}x the tokens per second of {}", speed(p, w) / speed(*best, w), best->offer.name);
    }
    if (p.price_per_gpu_hour && best->price_per_gpu_hour && money(p, w) && money(*best, w)) {
      const double hour = *p.price_per_gpu_hour - *best->price_per_gpu_hour;
      const double run = *money(p, w) / *money(*best, w) - 1.0;
      r += fmt::format("; {} per GPU-hour, {:.0f} % {} per {}", hour < 0 ? "cheaper" : hour > 0 ? "dearer" : "same price",
                       std::abs(run) * 100, run >= 0 ? "dearer" : "cheaper", w == Workload::train ? "run" : "token");
    }
    p.reason = r;
  }
}

}  // namespace gpuvet::plan
