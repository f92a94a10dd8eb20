// Cross-node consistency of a multi-node run (gpuvet nccl under mpirun): every node should hold
// the same GPUs with the same firmware and software. Pure; called by the CLI on rank 0.
#pragma once

#include <string>
#include <vector>

#include "core/finding.hpp"

namespace gpuvet::analysis {

struct NodeInventory {
  std::string host;                    // hostname, or "rank N" when unknown
  std::vector<std::string> gpu_names;  // per GPU, in index order ("" when unknown)
  std::vector<std::string> vbios;      // per GPU ("" when unknown)
  std::string driver_version;          // "" when unknown
  std::string cuda_version;
};

// node_inventory_mismatch: nodes whose GPU count or models differ from most nodes' (fail), or
// whose driver, CUDA version or VBIOS differ (warn). Unknown values are not compared.
std::vector<core::Finding> judge_nodes(const std::vector<NodeInventory>& nodes);

}  // namespace gpuvet::analysis
