// The expected large-message busbw of an NCCL collective on a machine (internal to analysis/):
// the fabric's per-GPU line rate times an efficiency measured on healthy machines of the same
// architecture (../shared/reference/perf-anchors.md section 2).
#pragma once

#include <string>
#include <string_view>

#include "core/assessment.hpp"
#include "core/gpu_model.hpp"
#include "core/machine.hpp"

namespace gpuvet::analysis {

struct BusbwExpectation {
  core::Reading<double> busbw_gbps;
  std::string basis;  // the arithmetic and its sources, or why there is no expectation
};

// `model` is the GPUs' catalogue model (nullptr when unknown or mixed); `per_gpu_nvlink_gbps`
// the fabric's per-GPU, per-direction NVLink rate when the GPUs meet in NVSwitches.
BusbwExpectation expected_busbw(std::string_view op, int ranks, int nodes, const core::GpuModel* model,
                                const core::Reading<double>& per_gpu_nvlink_gbps, core::InterconnectClass cls);

}  // namespace gpuvet::analysis
