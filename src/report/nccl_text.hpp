// gpuvet nccl's nccl-tests style text: a table per size sweep and the per-set busbw of scaling
// runs, from what the probe measured in machine GPU indices (cli/nccl_node.cpp builds it). Pure.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/collective.hpp"
#include "core/machine.hpp"
#include "core/reading.hpp"

namespace gpuvet::report {

// One size sweep, as nccl-tests prints it.
struct NcclSweep {
  core::CollectiveRun run;   // op, ranks, rows and notes
  std::vector<int> gpus;     // machine GPU indices, rank order (each node's, across nodes); -1 unmapped
  std::optional<bool> nvls;  // NCCL_NVLS_ENABLE it ran with (nullopt: NCCL's choice)
  int nodes = 1;             // processes (nodes) it spanned
};

// One set of a scaling run and the out-of-place busbw of its (single) size.
struct NcclScalingSet {
  std::vector<int> gpus;  // machine GPU indices
  core::Reading<double> busbw_gbps;
};

// A scaling run: one op at one size on every pair, the 4-GPU subsets and all GPUs, in that order.
struct NcclScaling {
  std::string op;  // "all_reduce"
  std::uint64_t bytes = 0;
  std::vector<NcclScalingSet> sets;
};

// What one node measured and with what.
struct NcclTables {
  std::string backend;  // the backend's own description
  bool simulated = false;
  std::vector<std::string> notes;  // what was asked for and not run, with why
  std::vector<NcclSweep> sweeps;
  std::vector<NcclScaling> scaling;
};

// The header, a table per sweep, then the scaling runs (each pair's path from `machine`'s links).
std::string render_nccl_tables(const NcclTables& tables, const core::Machine& machine);
// The tables of sweeps alone (the sweeps across nodes of gpuvet nccl under mpirun).
std::string render_nccl_sweeps(const std::vector<NcclSweep>& sweeps);

// "0-7", "0,2,4-6": consecutive runs of three or more collapsed, order kept.
std::string gpu_ranges(const std::vector<int>& gpus);
// ", NVLS on (NCCL_NVLS_ENABLE=1)", ", NVLS off (NCCL_NVLS_ENABLE=0)", or "" for NCCL's choice.
std::string nvls_label(const std::optional<bool>& nvls);

}  // namespace gpuvet::report
