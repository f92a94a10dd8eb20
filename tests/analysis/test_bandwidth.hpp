// Hand-built copy-bandwidth runs for the judge's tests.
#pragma once

#include <string>
#include <vector>

#include "core/assessment.hpp"
#include "core/bandwidth.hpp"

namespace gpuvet::analysis::testing {

// An nvbandwidth-like run on `n` devices named `device`: one host_to_device_memcpy_ce row of
// `h2d` GB/s and a device_to_device_memcpy_read_ce matrix of `d2d` GB/s (N/A diagonal).
core::BandwidthRun nvbandwidth_run(int n, const std::string& device, double h2d, double d2d);
// A p2pBandwidthLatencyTest-like run: unidirectional P2P=Disabled and P2P=Enabled matrices of
// `disabled` and `enabled` GB/s off the diagonal.
core::BandwidthRun p2p_run(int n, double enabled, double disabled);
core::Assessment judge_bandwidth_runs(const std::vector<core::BandwidthRun>& runs);
// Findings from runs that emit every bandwidth finding code.
std::vector<core::Finding> bandwidth_gallery_findings();

}  // namespace gpuvet::analysis::testing
