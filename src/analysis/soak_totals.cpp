// Totals of a stored burn-in for the spec's tolerances.
#include "analysis/soak_totals.hpp"

#include <algorithm>
#include <map>

namespace gpuvet::analysis {
namespace {

constexpr std::uint64_t kThrottleBits = core::clocks_event::hw_slowdown | core::clocks_event::sw_thermal_slowdown |
                                        core::clocks_event::hw_thermal_slowdown | core::clocks_event::hw_power_brake;

// First and last known value of a cumulative counter.
struct Span {
  std::optional<std::uint64_t> first, last;
  void add(std::uint64_t v) {
    if (!first) first = v;
    last = v;
  }
  [[nodiscard]] std::uint64_t delta() const { return first && *last > *first ? *last - *first : 0; }
};

void add_to(std::optional<std::uint64_t>& total, const Span& span) {
  if (!span.first) return;
  total = total.value_or(0) + span.delta();
}

}  // namespace

SoakTotals soak_totals(const core::BurninRecord& record) {
  SoakTotals t;
  struct PerGpu {
    std::size_t known = 0, throttled = 0;
    Span ecc;
    std::map<std::pair<int, int>, Span> nvlink;  // (link, counter) -> span
  };
  std::map<int, PerGpu> gpus;
  double first_t = 0, last_t = 0;
  bool any = false;
  for (const auto& s : record.samples) {
    if (!any) first_t = s.t_s;
    any = true;
    last_t = std::max(last_t, s.t_s);
    auto& g = gpus[s.gpu];
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
  if (any) t.recorded_s = last_t - first_t + record.run.interval_s;
  for (const auto& [gpu, g] : gpus) {
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
  for (const auto& gpu : record.gpus) {
    const auto it = gpus.find(gpu.index);
    if (it == gpus.end() || it->second.known == 0) t.gpus_without_throttle_reasons.push_back(gpu.index);
    if (it == gpus.end() || !it->second.ecc.first) t.gpus_without_ecc.push_back(gpu.index);
    if (it == gpus.end() || it->second.nvlink.empty()) t.gpus_without_nvlink.push_back(gpu.index);
  }
  t.xid_events = static_cast<std::uint64_t>(std::count_if(record.events.begin(), record.events.end(), [](const auto& e) {
    return e.kind == core::TelemetryEventKind::xid;
  }));
  return t;
}

}  // namespace gpuvet::analysis
