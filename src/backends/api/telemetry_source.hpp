// What a backend must offer to watch GPUs during a burn-in: the GPUs with their limits, a probe
// of which fields each GPU can report (run once, before the first sample), one sample per GPU
// per tick, and the events (Xid, GPU lost) seen since the last call. Implemented by
// backends/nvml (live) and backends/sim (the burn-in model). Called by the burn-in runner from
// its sampling thread only. A field that probe() found unsupported is never read again: its
// reading in every sample is absent with the probe's reason. Never changes GPU state.
#pragma once

#include <string>
#include <vector>

#include "core/error.hpp"
#include "core/telemetry.hpp"

namespace gpuvet::api {

class TelemetrySource {
 public:
  virtual ~TelemetrySource() = default;
  // "NVML 12.580.65 (driver 580.65)" or "simulated burn-in model (seed 1)".
  [[nodiscard]] virtual std::string describe() const = 0;
  [[nodiscard]] virtual bool simulated() const = 0;
  // The GPUs this source sees, by index; environment error when none can be read.
  virtual core::Result<std::vector<core::BurninGpu>> gpus() = 0;
  // Fields `gpu` cannot report (column names as in TelemetrySample, e.g. "mem_temp_c", "nvlink").
  virtual std::vector<core::UnsupportedField> probe(int gpu) = 0;
  // One sample of `gpu` at run time `t_s` (seconds since the run started; the simulator advances
  // its model to it). tflops and miscompares are left absent: the stress backend fills them.
  virtual core::TelemetrySample sample(int gpu, double t_s) = 0;
  // Events seen up to `t_s` and not returned before.
  virtual std::vector<core::TelemetryEvent> drain_events(double t_s) = 0;
};

}  // namespace gpuvet::api
