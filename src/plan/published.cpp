// The published efficiencies behind the planner's defaults.
#include "plan/published.hpp"

namespace gpuvet::plan {

Figure default_mfu(const core::GpuModel& gpu, Precision precision) {
  if (precision == Precision::fp8 && gpu.fp8_tflops) {
    // torchtitan Llama 3.1 8B on 8x H100: 8532 tok/s/GPU with FP8 vs 5762 in BF16 (1.48x on a 2x
    // peak), i.e. ~0.40 x 1.48 / 2 of the FP8 peak (pytorch/torchtitan benchmarks, perf-anchors 8.2).
    return {0.30, "FP8: torchtitan Llama 3.1 8B on 8x H100, 8532 vs 5762 tok/s/GPU over BF16 (1.48x on a 2x peak)"};
  }
  if (gpu.architecture == "Hopper" || gpu.architecture == "Blackwell") {
    return {0.40, "Llama 3 405B 38-43 % BF16 MFU on H100 (arXiv 2407.21783 Table 4); MPT-7B 40.4-46.4 % on 8x H100 "
                  "(mosaicml/llm-foundry benchmarking README)"};
  }
  if (gpu.architecture == "Ampere") {
    return {0.48, "A100: BLOOM-176B ~150 TFLOPS of 312 (48 %, ml-engineering training/performance); MPT-70B 53.3 %, "
                  "torchtitan Llama 3 70B 51.7 % (perf-anchors 8.2)"};
  }
  return {0.35, "no published training MFU for " + gpu.architecture +
                    " cards: 35 %, the low end of the planner range (monitor-planner.md B1)"};
}

Figure peak_tflops(const core::GpuModel& gpu, Precision precision) {
  if (precision == Precision::fp8 && gpu.fp8_tflops) {
    return {*gpu.fp8_tflops, gpu.display_name + " dense FP8 (profiles/gpus.yaml)"};
  }
  if (gpu.bf16_tflops) return {*gpu.bf16_tflops, gpu.display_name + " dense BF16 (profiles/gpus.yaml)"};
  if (gpu.fp32_tflops) return {*gpu.fp32_tflops, gpu.display_name + " FP32, no BF16 tensor path (profiles/gpus.yaml)"};
  return {0, "no TFLOPS for " + gpu.display_name + " in the catalogue"};
}

Figure decode_bandwidth_efficiency() {
  // STREAM-like copies reach 2.9-3.2 of 3.35 TB/s on H100 SXM and 1.6-1.9 of 2.0 on A100
  // (perf-anchors.md 0.1, 4): 85 % is the low end, for a serving engine's mixed kernels.
  return {0.85, "HBM copies reach 87-95 % of spec on H100/A100 (perf-anchors 0.1, 4); 85 % assumed for decode"};
}

}  // namespace gpuvet::plan
