// Rollup-only hours of a history for `gpuvet trend` and `gpuvet report --db` (trend_rollups.hpp).
#include "cli/trend_rollups.hpp"

#include "analysis/trend_rollup_gap.hpp"
#include "analysis/trend_rollup_health.hpp"
#include "telemetry/history_reader.hpp"

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

core::Result<RollupHours> judge_rollup_hours(const std::string& db, std::int64_t from_unix_ms) {
  double interval_s = 1;
  analysis::RawHourTally raw_hours;
  std::optional<analysis::RollupHealth> health;
  RollupHours out;
  telemetry::HistorySinks sinks;
  sinks.on_header = [&](const core::BurninRecord& header) { interval_s = header.run.interval_s; };
  sinks.on_sample = [&](const core::TelemetrySample& s) { raw_hours.add(s); };
  sinks.on_hour_rollup = [&](const telemetry::HourRollup& r, std::int64_t hour_unix_ms) {
    if (hour_unix_ms + 3600000 <= from_unix_ms) return;
    // Only what no raw sample holds: the whole hour, or its part before the first raw sample.
    const auto part = raw_hours.remainder(rollup_input(r, hour_unix_ms), r.hour);
    if (!part || part->samples == 0) return;
    if (!health) health.emplace(interval_s);
    health->add(*part);
    out.gpu_s += static_cast<double>(part->samples) * interval_s;
  };
  auto record = telemetry::read_history(db, sinks);
  if (!record) return record.error();
  if (health) {
    out.findings = health->findings();
    out.span = health->span();
  }
  return out;
}

}  // namespace gpuvet::cli
