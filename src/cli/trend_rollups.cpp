// A stored hourly rollup as the judges read it (trend_rollups.hpp).
#include "cli/trend_rollups.hpp"


namespace gpuvet::cli {

analysis::RollupInput rollup_input(const telemetry::HourRollup& r, std::int64_t hour_unix_ms) {
  analysis::RollupInput in;
  in.gpu = r.gpu;
  in.unix_ms = hour_unix_ms;
  in.samples = r.samples;
  in.temp_c = r.gpu_temp_c.mean;
  in.max_temp_c = r.gpu_temp_c.max;
  in.sm_clock_mhz = r.sm_clock_mhz.mean;
  in.power_w = r.power_w.mean;
  in.util_pct = r.util_gpu_pct.mean;
  in.throttled = r.throttled;
  in.nvlink_crc = r.nvlink_crc_new;
  in.nvlink_replay = r.nvlink_replay_new;
  in.nvlink_recovery = r.nvlink_recovery_new;
  if (r.nvlink_crc_new || r.nvlink_replay_new || r.nvlink_recovery_new) {
    in.nvlink_errors = r.nvlink_crc_new.value_or(0) + r.nvlink_replay_new.value_or(0) + r.nvlink_recovery_new.value_or(0);
  }
  in.ecc_corrected = r.ecc_corrected_new;
  in.ecc_uncorrected = r.ecc_uncorrected_new;
  in.pcie_replays = r.pcie_replays_new;
  return in;
}

}  // namespace gpuvet::cli
