// A monitor snapshot for the endpoint tests: 8 H100-like GPUs with every reading the sampler can
// fill, one GPU lost, one not sampled yet, one with readings absent, NVLink counters and alerts.
#pragma once

#include "monitor/monitor_snapshot.hpp"

namespace gpuvet::monitor::testing {

// GPU 0..7; GPU 5 lost, GPU 6 has no sample yet, GPU 7 lacks mem_temp, energy and NVLink.
// Hostname "node-a". Two alerts: utilization_below_peers on GPU 3 (warn), nvlink_errors_growing
// on GPUs 1 and 2 (fail). Acceptance baselines (--baseline) for GPUs 0..5, GPU 1's without power.
MonitorSnapshot full_snapshot();

}  // namespace gpuvet::monitor::testing
