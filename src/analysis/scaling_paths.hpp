// Path classes of GPU sets for the collective attribution (internal to analysis/): runs are only
// compared with runs whose GPUs are joined by the same kind of path, so the topology itself is
// never blamed on a GPU or link.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "analysis/collective_attribution.hpp"
#include "core/finding.hpp"
#include "core/machine.hpp"
#include "core/topology.hpp"

namespace gpuvet::analysis {

// The slowest path among every pair of `gpus` (machine indices); nullopt when the machine's link
// matrix does not know one of them.
std::optional<core::Link> worst_path(const core::Machine& machine, const std::vector<int>& gpus);
// True when path `a` is slower than `b` (NVLink with fewer links, or a farther PCIe hop).
bool slower_path(const core::Link& a, const core::Link& b);
// "NV18", "SYS", or "unknown path".
std::string path_key(const std::optional<core::Link>& link);

// scaling_efficiency.cpp: scaling_below_expected for the all-GPU run against the best run of the
// largest smaller sets measured (4-GPU subsets, else pairs).
std::optional<core::Finding> judge_scaling(const ScalingObservation& observation, const core::Machine& machine);

}  // namespace gpuvet::analysis
