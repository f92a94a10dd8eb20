// Attribution of slow collectives: which GPU or link the slow GPU subsets have in common
// (straggler_gpu, slow_link), how the all-GPU run scales against the best half-size subset
// (scaling_below_expected), and collectives that hung (collective_hung). Pure: measurements and
// the machine picture in, findings out. Called by the CLI after the collective probe.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/finding.hpp"
#include "core/machine.hpp"
#include "core/reading.hpp"

namespace gpuvet::analysis {

// The busbw one set of GPUs reached at the size the scaling run used (absent when it did not
// complete). GPUs are machine indices (core::Gpu::index).
struct SubsetBusbw {
  std::vector<int> gpus;
  core::Reading<double> busbw_gbps;
};

struct ScalingObservation {
  std::string op;                     // nccl-tests name: "all_reduce"
  std::uint64_t size_bytes = 0;
  std::vector<SubsetBusbw> pairs;     // every pair
  std::vector<SubsetBusbw> subsets;   // 4-GPU subsets
  std::optional<SubsetBusbw> all;     // every GPU of the run
};

// straggler_gpu, slow_link and scaling_below_expected. Pairs and subsets are compared with the
// upper quartile of those joined by the same kind of path (from machine.links when known), so a machine
// whose GPUs are unevenly connected is not read as faulty; silent where there are too few to compare.
std::vector<core::Finding> attribute_scaling(const ScalingObservation& observation, const core::Machine& machine);

struct HangObservation {
  std::string op;
  std::vector<int> gpus;          // machine indices of the communicator
  std::uint64_t size_bytes = 0;
  std::vector<int> pending_gpus;  // machine indices that had not finished
  std::string detail;
  double timeout_s = 0;
};

// collective_hung, one per hang.
std::vector<core::Finding> judge_hangs(const std::vector<HangObservation>& hangs);

}  // namespace gpuvet::analysis
