// Published efficiencies the planner assumes when the user states none (plan/): the share of the
// dense peak training runs reach (MFU), and of HBM bandwidth a decode step reaches. Each figure
// carries its source; ../shared/reference/perf-anchors.md section 8.2 and monitor-planner.md B1.
#pragma once

#include <string>

#include "core/gpu_model.hpp"
#include "plan/job.hpp"

namespace gpuvet::plan {

struct Figure {
  double value = 0;
  std::string source;
};

// Utilisation of the dense peak for `gpu` at `precision` (bf16 or fp8 peak).
Figure default_mfu(const core::GpuModel& gpu, Precision precision);

// Dense peak TFLOP/s of `gpu` at `precision` (fp8 where the card has it, else bf16); 0 when unknown.
Figure peak_tflops(const core::GpuModel& gpu, Precision precision);

// Share of the spec HBM bandwidth a decode step streams at.
Figure decode_bandwidth_efficiency();

// Framework reserve per GPU: CUDA context, NCCL buffers and allocator fragmentation.
inline constexpr double kReserveFixedGib = 2.0;
inline constexpr double kReserveFraction = 0.05;
inline constexpr const char* kReserveSource =
    "2 GiB (CUDA context 0.3-2 GiB, vram.asmirnov.xyz; NCCL buffers) + 5 % of the rest for allocator "
    "fragmentation (assumed; no published figure)";

}  // namespace gpuvet::plan
