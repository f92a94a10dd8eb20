// Hand-built scaling observations for the attribution tests and the finding gallery.
#pragma once

#include <set>
#include <utility>
#include <vector>

#include "analysis/collective_attribution.hpp"
#include "core/machine.hpp"

namespace gpuvet::analysis::testing {

// `n` GPUs, every pair joined by `link` (NV18: an NVSwitch board).
core::Machine uniform_machine(int n, core::Link link);

// busbw of every pair, every 4-GPU subset and all GPUs on a machine where each set reaches
// `base` GB/s times the slowest member's factor, times `link_factor` when the set holds both
// ends of the slow pair.
ScalingObservation planted_observation(int n, double base, const std::vector<std::pair<int, double>>& stragglers,
                                       std::pair<int, int> slow_pair = {-1, -1}, double link_factor = 1.0);

// Findings covering every code attribution emits, at their catalogue severity.
std::vector<core::Finding> attribution_gallery_findings();

}  // namespace gpuvet::analysis::testing
