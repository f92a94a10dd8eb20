// The numbers an acceptance spec's burn-in tolerances are written in, totalled over a stored run:
// time held back by thermal or hardware slowdowns, new uncorrectable ECC errors, Xid events and
// new NVLink errors. Pure: a stored run in, totals out. Unknown stays unknown (a counter no GPU
// reported is absent, never 0).
#pragma once

#include <cstdint>
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

SoakTotals soak_totals(const core::BurninRecord& record);

}  // namespace gpuvet::analysis
