// Per-GPU hourly rollups of the telemetry store: what a months-long history keeps once the raw
// samples are pruned (monitor retention, weekly trend lines): min/mean/max of utilization,
// temperature, power and SM clock, the throttled samples, and how much each error counter grew.
// HourAccumulator is fed samples of one GPU in time order; internal to src/telemetry except the
// HourRollup it produces (read back with read_hour_rollups, telemetry_store.hpp).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

#include <string>

#include "core/telemetry.hpp"

namespace gpuvet::telemetry {

class Statement;

// min/mean/max of the known values of one reading; all absent when none was known.
struct RollupStat {
  std::optional<double> min, mean, max;
};

// One GPU's hour. Counter growth is the sum of the rises between consecutive known readings,
// the previous hour's last one included (a counter that goes down, e.g. after a driver reload,
// adds nothing); absent when no rise could be computed (no reading before one of this hour).
struct HourRollup {
  int gpu = 0;
  std::int64_t hour = 0;           // floor(t_s / 3600)
  std::size_t samples = 0;
  double t_s = 0;                  // mean time of the samples
  RollupStat util_gpu_pct, gpu_temp_c, power_w, sm_clock_mhz;
  std::size_t throttled = 0;       // samples with a thermal/hardware slowdown or power brake
  // Counter growth: NVLink CRC (flit + data) / replay / recovery summed over links, ECC, PCIe.
  std::optional<std::uint64_t> nvlink_crc_new, nvlink_replay_new, nvlink_recovery_new, ecc_corrected_new,
      ecc_uncorrected_new, pcie_replays_new;
};

// The hourly_rollups columns, in HourRollup's order.
inline constexpr std::string_view kHourRollupColumns =
    "gpu, hour, samples, t_s, util_min, util_mean, util_max, temp_min, temp_mean, temp_max, power_min, power_mean, "
    "power_max, clock_min, clock_mean, clock_max, throttled, nvlink_crc_new, nvlink_replay_new, nvlink_recovery_new, "
    "ecc_corrected_new, ecc_uncorrected_new, pcie_replays_new";
inline constexpr int kHourRollupColumnCount = 23;

// INSERT of one hourly row that merges into a row of the same GPU and hour already there (a
// monitor restarted within the hour): counts add up, min/max combine, means are weighted by samples.
std::string hour_rollup_upsert_sql();
void bind_hour_rollup(Statement& st, const HourRollup& r);
// One row of "SELECT kHourRollupColumns FROM hourly_rollups".
HourRollup read_hour_rollup(const Statement& st);

class HourAccumulator {
 public:
  // Adds a sample of this GPU. When it falls in a later hour than the samples so far, the finished
  // hour is returned and the accumulator starts the new one (counters continue from their last value).
  std::optional<HourRollup> add(const core::TelemetrySample& sample);
  // The hour so far (nullopt when it has no sample); the accumulator is left empty.
  std::optional<HourRollup> take();

 private:
  struct Stat {
    std::size_t n = 0;
    double sum = 0, min = 0, max = 0;
    void add(double v);
    [[nodiscard]] RollupStat result() const;
  };
  struct Counter {
    std::optional<std::uint64_t> last;  // across hours
    std::uint64_t grown = 0;
    bool measured = false;               // a rise could be computed this hour
    void add(std::uint64_t value);
  };
  enum CounterIndex { kCrc, kReplay, kRecovery, kEccCorrected, kEccUncorrected, kPcie, kCounters };
  void reset_hour(std::int64_t hour);
  std::int64_t hour_ = -1;
  int gpu_ = 0;
  std::size_t samples_ = 0, throttled_ = 0;
  double t_sum_ = 0;
  std::array<Stat, 4> stats_{};
  std::array<Counter, kCounters> counters_{};
};

}  // namespace gpuvet::telemetry
