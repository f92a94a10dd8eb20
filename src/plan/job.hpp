// What the user wants to run (plan/): a training job or an inference service, with the knobs
// the issue names. Defaults are stated in plan_command's --help and docs/json.md. Pure data.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace gpuvet::plan {

enum class Workload { train, infer };
std::string_view to_string(Workload w);

// Numeric formats; bytes() is the storage size of one value.
enum class Precision { fp32, bf16, fp16, fp8, int8, int4 };
std::string_view to_string(Precision p);
bool parse_precision(std::string_view text, Precision& out);
double bytes(Precision p);

enum class Recompute { none, full };

struct TrainJob {
  double tokens = 1e12;              // tokens to train on
  int seq_len = 4096;
  int global_batch = 1024;           // sequences per optimizer step
  int micro_batch = 1;               // sequences per GPU per forward pass
  Precision precision = Precision::bf16;  // math precision: picks the peak (bf16 or fp8)
  int zero = -1;                     // 0..3 (FSDP = 3); -1: the smallest stage that fits
  int tp = 0;                        // tensor-parallel size; 0: smallest that fits
  int pp = 0;                        // pipeline-parallel size; 0: smallest that fits
  // Expert-parallel size (MoE only): the routed experts are split over `ep` data-parallel ranks,
  // experts / ep per GPU. 0: the smallest that fits; dense models always plan 1.
  int ep = 0;
  Recompute recompute = Recompute::none;
};

struct InferJob {
  Precision weights = Precision::bf16;
  Precision kv_cache = Precision::bf16;
  int context = 8192;                // tokens per sequence (prompt + output)
  int concurrent = 32;               // sequences decoded together per replica
  int tp = 0;                        // 0: smallest that fits
  std::optional<double> tokens;      // output tokens to serve (days and cost), when given
};

struct Job {
  Workload workload = Workload::train;
  TrainJob train;
  InferJob infer;
  // Share of the dense peak the GPUs reach on their arithmetic (MFU without recomputation; with
  // --recompute full the GPUs do 8N per token at this rate). Absent: a published figure by GPU.
  std::optional<double> mfu;
  double availability = 1.0;         // share of wall time spent training (Llama 3: > 0.9)
  bool overlap = true;               // data-parallel traffic overlaps the backward pass
};

}  // namespace gpuvet::plan
