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

// Device memory traffic of an SM copy kernel (read + write bytes), one GPU.
PathExpectation expected_memory_copy(const core::GpuModel* model);

// What most likely holds a slow cell back, from the machine picture: "PCIe link at Gen4 x8
// (capable of Gen5 x16)", "2 of 18 NVLink links down", ...; empty when nothing stands out.
std::string likely_host_cause(const core::Gpu* gpu, const core::GpuModel* model);
std::string likely_peer_cause(const core::Machine& machine, const Fabric& fabric, int a, int b);

}  // namespace gpuvet::analysis
