// What one GPU's samples come to over a period of run time (a minute, an hour): min/mean/max of
// utilization, temperature, power and SM clock, the throttled samples, and how much each error
// counter grew. One accumulator for both layers of the history (minute_rollup.hpp, hour_rollup.hpp);
// internal to src/telemetry except the rollups it produces (read back through telemetry_store.hpp).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>

#include "core/telemetry.hpp"

namespace gpuvet::telemetry {

// min/mean/max of the known values of one reading; all absent when none was known.
struct RollupStat {
  std::optional<double> min, mean, max;
};

// One GPU's period. Counter growth is the sum of the rises between consecutive known readings,
// the previous period's last one included (a counter that goes down, e.g. after a driver reload,
// adds nothing); absent when no rise could be computed (no reading before one of this period).
struct PeriodRollup {
  int gpu = 0;
  std::size_t samples = 0;
  double t_s = 0;                  // mean time of the samples
  RollupStat util_gpu_pct, gpu_temp_c, power_w, sm_clock_mhz;
  std::size_t throttled = 0;       // samples with a thermal/hardware slowdown or power brake
  // Counter growth: NVLink CRC (flit + data) / replay / recovery summed over links, ECC, PCIe.
  std::optional<std::uint64_t> nvlink_crc_new, nvlink_replay_new, nvlink_recovery_new, ecc_corrected_new,
      ecc_uncorrected_new, pcie_replays_new;
  // Kept by the minute rollups only (the burn-in charts): samples under load (TFLOP/s known), their
  // mean TFLOP/s, and the first and last throttled sample.
  std::size_t loaded = 0;
  std::optional<double> tflops;
  std::optional<double> throttled_from_s, throttled_to_s;
};

// Fed the samples of one GPU in time order; cuts them into periods of `period_s` seconds of run
// time (period index floor(t_s / period_s)). Used from the store's writer thread only.
class PeriodAccumulator {
 public:
  explicit PeriodAccumulator(double period_s) : period_s_(period_s) {}

  struct Closed {
    std::int64_t period = 0;
    PeriodRollup rollup;
  };
  // Adds a sample of this GPU. When it falls in a later period than the samples so far, the
  // finished period is returned and the accumulator starts the new one (counters continue from
  // their last value).
  std::optional<Closed> add(const core::TelemetrySample& sample);
  // The period so far (nullopt when it has no sample); the accumulator is left empty.
  std::optional<Closed> take();

 private:
  struct Stat {
    std::size_t n = 0;
    double sum = 0, min = 0, max = 0;
    void add(double v);
    [[nodiscard]] RollupStat result() const;
  };
  struct Counter {
    std::optional<std::uint64_t> last;  // across periods
    std::uint64_t grown = 0;
    bool measured = false;               // a rise could be computed this period
    void add(std::uint64_t value);
  };
  enum StatIndex { kUtil, kTemp, kPower, kClock, kTflops, kStats };
  enum CounterIndex { kCrc, kReplay, kRecovery, kEccCorrected, kEccUncorrected, kPcie, kCounters };
  void reset_period(std::int64_t period);
  double period_s_;
  std::int64_t period_ = -1;
  int gpu_ = 0;
  std::size_t samples_ = 0, throttled_ = 0;
  double t_sum_ = 0;
  std::optional<double> throttled_from_s_, throttled_to_s_;
  std::array<Stat, kStats> stats_{};
  std::array<Counter, kCounters> counters_{};
};

}  // namespace gpuvet::telemetry
