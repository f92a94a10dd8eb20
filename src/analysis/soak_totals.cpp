// Totals of a stored burn-in for the spec's tolerances.
#include "analysis/soak_totals.hpp"

#include <algorithm>
#include <map>

namespace gpuvet::analysis {
namespace {

constexpr std::uint64_t kThrottleBits = core::clocks_event::throttling;

template <class Span>
void add_to(std::optional<std::uint64_t>& total, const Span& span) {
  if (!span.first) return;
  total = total.value_or(0) + span.delta();
}

}  // namespace

void SoakCounter::on_sample(const core::TelemetrySample& s) {
  if (!any_) first_t_ = s.t_s;
  any_ = true;
  last_t_ = std::max(last_t_, s.t_s);
  auto& g = gpus_[s.gpu];
  if (s.clocks_event_reasons.known()) {
    ++g.known;
    if ((*s.clocks_event_reasons & kThrottleBits) != 0) ++g.throttled;
  }
  if (s.ecc_uncorrected.known()) g.ecc.add(*s.ecc_uncorrected);
  if (s.nvlink.known()) {
    for (const auto& link : *s.nvlink) {
      int counter = 0;
      for (const auto* r : {&link.crc_flit, &link.crc_data, &link.recovery}) {
        if (r->known()) g.nvlink[{link.link, counter}].add(**r);
        ++counter;
      }
    }
  }
}

void SoakCounter::on_event(const core::TelemetryEvent& e) {
  if (e.kind == core::TelemetryEventKind::xid) ++xid_events_;
}

SoakTotals SoakCounter::finish(const std::vector<core::BurninGpu>& gpus) const {
  SoakTotals t;
  if (any_) t.recorded_s = last_t_ - first_t_ + interval_s_;
  for (const auto& [gpu, g] : gpus_) {
    if (g.known > 0) {
      const double share = static_cast<double>(g.throttled) / static_cast<double>(g.known);
      if (!t.throttle_fraction || share > *t.throttle_fraction) {
        t.throttle_fraction = share;
        t.throttle_gpu = gpu;
      }
    }
    add_to(t.ecc_uncorrectable_new, g.ecc);
    for (const auto& [key, span] : g.nvlink) add_to(t.nvlink_errors_new, span);
  }
  for (const auto& gpu : gpus) {
    const auto it = gpus_.find(gpu.index);
    if (it == gpus_.end() || it->second.known == 0) t.gpus_without_throttle_reasons.push_back(gpu.index);
    if (it == gpus_.end() || !it->second.ecc.first) t.gpus_without_ecc.push_back(gpu.index);
    if (it == gpus_.end() || it->second.nvlink.empty()) t.gpus_without_nvlink.push_back(gpu.index);
  }
  t.xid_events = xid_events_;
  return t;
}

SoakTotals soak_totals(const core::BurninRecord& record) {
  SoakCounter counter(record.run.interval_s);
  for (const auto& s : record.samples) counter.on_sample(s);
  for (const auto& e : record.events) counter.on_event(e);
  return counter.finish(record.gpus);
}

}  // namespace gpuvet::analysis
