// The numbers an acceptance spec's burn-in tolerances are written in, totalled over a stored run:
// time held back by thermal or hardware slowdowns, new uncorrectable ECC errors, Xid events and
// new NVLink errors. Pure and streaming: SoakCounter is fed sample by sample (per-GPU counters
// only, never the series). Unknown stays unknown (a counter no GPU reported is absent, never 0).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <vector>

#include "core/telemetry.hpp"

namespace gpuvet::analysis {

struct SoakTotals {
  // Worst GPU's share of samples whose clock-event reasons include a thermal slowdown, a hardware
  // slowdown or the power brake (sw_power_cap is the normal state of a GPU at full load: not
  // counted). Absent when no sample reported reasons.
  std::optional<double> throttle_fraction;
  int throttle_gpu = -1;
  std::optional<std::uint64_t> ecc_uncorrectable_new;  // summed over GPUs: last - first known value
  std::uint64_t xid_events = 0;                        // Xid events recorded (any code)
  std::optional<std::uint64_t> nvlink_errors_new;      // CRC (flit + data) and recoveries, over every link
  double recorded_s = 0;                               // time covered by samples
  // GPUs of the run (record.gpus) that never reported the reading: their share of the totals is
  // unknown, so a total that leaves them out is a lower bound, not a count.
  std::vector<int> gpus_without_throttle_reasons;
  std::vector<int> gpus_without_ecc;
  std::vector<int> gpus_without_nvlink;
};

class SoakCounter {
 public:
  explicit SoakCounter(double interval_s) : interval_s_(interval_s) {}
  // Samples in time order; events in any order.
  void on_sample(const core::TelemetrySample& s);
  void on_event(const core::TelemetryEvent& e);
  // `gpus`: the GPUs of the run, for the lists of GPUs that never reported a reading.
  [[nodiscard]] SoakTotals finish(const std::vector<core::BurninGpu>& gpus) const;

 private:
  // First and last known value of a cumulative counter.
  struct Span {
    std::optional<std::uint64_t> first, last;
    void add(std::uint64_t v) {
      if (!first) first = v;
      last = v;
    }
    [[nodiscard]] std::uint64_t delta() const { return first && *last > *first ? *last - *first : 0; }
  };
  struct PerGpu {
    std::size_t known = 0, throttled = 0;
    Span ecc;
    std::map<std::pair<int, int>, Span> nvlink;  // (link, counter) -> span
  };
  double interval_s_;
  std::map<int, PerGpu> gpus_;
  double first_t_ = 0, last_t_ = 0;
  bool any_ = false;
  std::uint64_t xid_events_ = 0;
};

// A whole record at once.
SoakTotals soak_totals(const core::BurninRecord& record);

}  // namespace gpuvet::analysis
