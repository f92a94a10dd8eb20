// Expected copy bandwidth of one path (internal to analysis/): a link's line rate times the
// share of it that copy engines reach on healthy machines (../shared/reference/perf-anchors.md).
#pragma once

#include <string>

#include "analysis/fabric_inference.hpp"
#include "core/machine.hpp"

namespace gpuvet::analysis {

struct PathExpectation {
  core::Reading<double> gbps;
  std::string basis;
};

// Host<->device copy of one GPU (CE memcpy, one GPU at a time, pinned memory).
PathExpectation expected_host_copy(const core::Gpu* gpu, const core::GpuModel* model);

// Unidirectional device-to-device copy between the GPUs at positions a and b, with P2P on.
PathExpectation expected_peer_copy(const core::Machine& machine, const Fabric& fabric, int a, int b);

}  // namespace gpuvet::analysis
