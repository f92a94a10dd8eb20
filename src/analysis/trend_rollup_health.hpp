// The period's health alerts for the hours `gpuvet trend` sees only as hourly rollups (raw samples
// pruned by the retention): NVLink CRC/replay/recovery, ECC and PCIe replay counter growth and
// throttled time become findings with the hours they happened in, beside the burn-in judge's
// findings over the raw samples (merge_period_findings). Pure; memory: one tally per GPU.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <utility>
#include <vector>

#include "analysis/burnin_judge.hpp"
#include "analysis/trend_history.hpp"
#include "core/finding.hpp"

namespace gpuvet::analysis {

class RollupHealth {
 public:
  // `interval_s`: the sampling interval (a rollup's throttled samples x interval = throttled time).
  explicit RollupHealth(double interval_s, BurninThresholds thresholds = {});
  // One GPU-hour (or the part of an hour no raw sample covers), any order.
  void add(const RollupInput& rollup);
  // The GPU-hour just before the period, not judged: NVLink growth in the period's first hour of
  // less than a minute of the rate this hour grew at is the tail of that earlier episode (its
  // last step crossed the boundary), an info, not a warning of its own.
  void add_before(const RollupInput& rollup);
  // nvlink_errors_growing, ecc_errors_new, pcie_replays, throttle_reasons, by GPU.
  [[nodiscard]] std::vector<core::Finding> findings() const;
  // The wall-clock span the rollups fed here cover (first start, last end); absent when none.
  [[nodiscard]] std::optional<std::pair<std::int64_t, std::int64_t>> span() const;

  // One counter's growth over the rollups that saw it grow.
  struct Tally {
    std::uint64_t growth = 0;
    std::size_t hours = 0;              // rollups it grew in
    std::int64_t first_ms = 0, last_end_ms = 0;  // first growing rollup's start, last one's end
    double worst_per_minute = 0;                 // the rollup it grew fastest in
    void add(std::int64_t start_ms, std::int64_t end_ms, std::uint64_t grown);
    [[nodiscard]] double per_minute() const;   // over [first_ms, last_end_ms]
  };

 private:
  struct Before {  // the hour before the period: its end and NVLink growth (crc, replay, recovery)
    std::int64_t end_ms = 0;
    std::uint64_t grown[3] = {};
  };
  struct Gpu {
    Tally crc, replay, recovery, ecc_corrected, ecc_uncorrected, pcie;
    Tally throttled;  // growth = throttled samples
    double sampled_s = 0;
  };
  double interval_s_;
  BurninThresholds thresholds_;
  std::map<int, Gpu> gpus_;
  std::map<int, Before> before_;
  std::optional<std::int64_t> from_ms_, to_ms_;
};

// The raw samples' findings with the rollups' added: one finding per code and GPU set (the raw
// one, its message and evidence extended with the rollup hours, at the higher severity).
std::vector<core::Finding> merge_period_findings(std::vector<core::Finding> raw, const std::vector<core::Finding>& rollups);

}  // namespace gpuvet::analysis
