// Where an hourly rollup meets the raw samples: the store keeps raw samples from some point inside
// an hour, and that hour's rollup holds every sample of it. RawHourTally sums the raw samples per
// GPU and run hour as `gpuvet trend` reads them, so the part of the rollup no raw sample covers is
// recovered exactly (rollup minus raw: samples, sums, counter growth, throttled samples) and the
// trend has no hole there. Pure; memory: one tally per GPU and hour of raw samples.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <utility>

#include "analysis/trend_history.hpp"
#include "core/telemetry.hpp"

namespace gpuvet::analysis {

class RawHourTally {
 public:
  // Raw samples of each GPU in time order; the hour is floor(t_s / 3600), as the store's rollups.
  void add(const core::TelemetrySample& sample);
  // Whether raw samples cover part of this GPU-hour.
  [[nodiscard]] bool covers(int gpu, std::int64_t hour) const;
  // `rollup` (the whole GPU-hour `hour`, all its samples) less what the raw samples of that hour
  // hold: the uncovered part, from the hour's start to its first raw sample; nullopt when raw
  // samples cover the whole hour. Field means are recovered from the rollup's mean x its samples.
  [[nodiscard]] std::optional<RollupInput> remainder(const RollupInput& rollup, std::int64_t hour) const;

 private:
  static constexpr std::size_t kCounters = 6;  // crc, replay, recovery, ecc corrected, ecc uncorrected, pcie
  struct Hour {
    std::size_t samples = 0, throttled = 0;
    std::array<double, 4> sum{};           // power, temp, clock, util
    std::array<std::size_t, 4> known{};
    std::array<std::uint64_t, kCounters> grown{};
    std::int64_t first_unix_ms = 0;
  };
  std::map<std::pair<int, std::int64_t>, Hour> hours_;
  std::map<int, std::array<std::optional<std::uint64_t>, kCounters>> last_;  // gpu -> last known counters
};

}  // namespace gpuvet::analysis
