// The collective probe: NCCL-style collectives measured through a CollectiveBackend, reported
// as nccl-tests would (size, count, time, algbw, busbw, #wrong per row) so the judge reads the
// probe's runs and pasted nccl-tests logs alike. Size sweeps for the plateau; scaling mode runs
// one size on every GPU pair, on 4-GPU subsets and on all GPUs, for attribution. Never judges.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "backends/api/collective_backend.hpp"
#include "core/collective.hpp"
#include "core/error.hpp"

namespace gpuvet::probes {

struct CollectiveProbeOptions {
  std::vector<api::CollectiveOp> ops{api::CollectiveOp::all_reduce};
  std::uint64_t min_bytes = 32ull << 20;  // first size of the sweep
  std::uint64_t max_bytes = 8ull << 30;   // last size (doubling from min_bytes), capped by memory
  int warmup = 5;
  int iterations = 20;
  bool in_place = true;                   // also measure the in-place column
  bool check = true;                      // count wrong elements
  std::chrono::milliseconds timeout{120000};  // per sample
  std::optional<bool> nvls;               // api::CollectiveRequest::nvls for every sample
  // Called on the probe's thread after each size is measured (sweeps and scaling sets alike):
  // live progress only, never part of the result. Empty: nothing.
  std::function<void(api::CollectiveOp op, const std::vector<int>& gpus, const core::CollectiveRow& row)> on_row{};
};

// A collective that did not complete before the timeout.
struct HungCollective {
  std::string op;
  std::vector<int> gpus;          // ordinals of the communicator, rank order
  std::uint64_t size_bytes = 0;
  std::vector<int> pending_gpus;  // ordinals that had not finished
  std::string detail;
};

struct CollectiveMeasurement {
  api::CollectiveOp op = api::CollectiveOp::all_reduce;
  std::vector<int> gpus;  // ordinals, rank order
  core::CollectiveRun run;
  std::optional<HungCollective> hang;  // the sweep stopped at this size
  std::optional<bool> nvls;            // NCCL_NVLS_ENABLE it ran with (nullopt: NCCL's choice)
  int nodes = 1;                       // processes (nodes) it spanned; gpus are this node's ordinals
};

// nccl-tests' busbw factor (doc/PERFORMANCE.md): all_reduce 2(n-1)/n; all_gather,
// reduce_scatter and alltoall (n-1)/n; broadcast and sendrecv 1.
double busbw_factor(api::CollectiveOp op, int ranks);

// The size nccl-tests would run for `bytes`: whole float elements, a multiple of 4*ranks for the
// ops that split the buffer between ranks (all_gather, reduce_scatter, alltoall).
std::uint64_t round_size(api::CollectiveOp op, int ranks, std::uint64_t bytes);

// Sizes min, 2*min, ... up to max (inclusive when reached exactly; max itself is always last).
std::vector<std::uint64_t> sweep_sizes(std::uint64_t min_bytes, std::uint64_t max_bytes);

// One run per op over the size sweep on `gpus`. A hang ends the sweep (recorded in `hang`);
// later ops are not run, since the GPUs may still be busy with the aborted collective. Errors
// are the backend's (environment, allocation).
core::Result<std::vector<CollectiveMeasurement>> sweep_collectives(api::CollectiveBackend& backend,
                                                                   const std::vector<int>& gpus,
                                                                   const CollectiveProbeOptions& options);

// The sweep of sweep_collectives across every process of `group` (one per node, each with its
// own local `gpus`; all processes call it together with the same options). Sizes are capped by
// the smallest node's memory; each iteration's time is the slowest process's (as nccl-tests
// takes the maximum over ranks) and #wrong is summed over processes, so every process returns
// the same measurements. run.ranks counts every GPU of every node, run.nodes the processes.
core::Result<std::vector<CollectiveMeasurement>> sweep_collectives_across(api::CollectiveBackend& backend,
                                                                          const std::vector<int>& gpus,
                                                                          api::ProcessGroup& group,
                                                                          const CollectiveProbeOptions& options);

struct ScalingMeasurement {
  api::CollectiveOp op = api::CollectiveOp::all_reduce;
  std::uint64_t bytes = 0;
  std::vector<CollectiveMeasurement> pairs;    // every pair
  std::vector<CollectiveMeasurement> subsets;  // 4-GPU subsets (when more than 4 GPUs)
  std::optional<CollectiveMeasurement> all;    // all GPUs (when more than 2)
};

// 4-GPU subsets of `gpus`: all of them up to 70 (8 GPUs); for bigger nodes a greedy sample in
// which every pair of GPUs shares at least one subset.
std::vector<std::vector<int>> four_gpu_subsets(const std::vector<int>& gpus);

// Scaling mode: `op` at one size (options.max_bytes, capped by memory) on every pair, the
// 4-GPU subsets and all GPUs; out-of-place only. Stops at the first hang (recorded in that set's
// measurement).
core::Result<ScalingMeasurement> measure_scaling(api::CollectiveBackend& backend, const std::vector<int>& gpus,
                                                 api::CollectiveOp op, const CollectiveProbeOptions& options);

}  // namespace gpuvet::probes
