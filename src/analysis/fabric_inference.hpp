// The fabric a benchmark log ran on (internal to analysis/): the machine picture when one was
// given, else what the log's device list implies (8 SXM GPUs of an NVSwitch-generation model on
// one node are an HGX board with NVSwitch; per node for a multi-node log).
#pragma once

#include <string>
#include <vector>

#include "core/assessment.hpp"
#include "core/collective.hpp"
#include "core/gpu_model.hpp"
#include "core/machine.hpp"

namespace gpuvet::analysis {

struct Fabric {
  const core::GpuModel* model = nullptr;  // the GPUs' common model; nullptr when unknown or mixed
  core::InterconnectClass cls = core::InterconnectClass::unknown;
  core::Reading<double> per_gpu_gbps = core::Reading<double>::absent("machine not described");
  std::string inferred;  // non-empty when the fabric comes from the log alone: "inferred ...; "
};

// `devices` = the device names the log lists, `ranks` and `nodes` what it says of its scale.
Fabric fabric_for(const std::vector<std::string>& devices, int ranks, int nodes, const core::Machine& machine,
                  const core::Catalog& catalog, const core::InterconnectSummary& ic);

// The fabric inside one node of a multi-node run (`local_ranks` GPUs per node): the machine
// picture when one was given (fabric_for), else each host of the Rank lines as an 8-GPU NVSwitch
// board of one model (nvswitch_board.hpp) when every rank's line names its host.
Fabric node_fabric_for(const core::CollectiveRun& run, int local_ranks, const core::Machine& machine,
                       const core::Catalog& catalog, const core::InterconnectSummary& ic);

// The model shared by every entry, or nullptr.
const core::GpuModel* common_model(const std::vector<const core::GpuModel*>& models);

}  // namespace gpuvet::analysis
