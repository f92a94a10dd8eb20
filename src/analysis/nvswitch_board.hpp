// Internal to analysis/: the 8-GPU NVSwitch board rule, shared by the interconnect classifier
// (interconnect_inferred.cpp: one machine, or each node of a multi-node input) and the fabric a
// benchmark log ran on (fabric_inference.cpp). Eight SXM modules of one Ampere/Hopper/Blackwell
// model on one node are an HGX/DGX 8-GPU board, whose GPUs meet in NVSwitches.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "analysis/interconnect_view.hpp"
#include "core/gpu_model.hpp"

namespace gpuvet::analysis {

// An SXM module of a generation whose 8-GPU boards all carry NVSwitches: HGX/DGX A100, H100,
// H200, B200 and the export boards (A800, H800, H20). Volta is left out: its 8-GPU board
// (DGX-1) is a hybrid cube mesh; the boards of four (HGX A100/H100 4-GPU) are a direct mesh.
bool eight_make_an_nvswitch_board(const core::GpuModel& model);

// The GPU reports an NVSwitch fabric state ("Completed", "In Progress", ...; not N/A).
bool fabric_state_reported(const core::Gpu& gpu);

// One GPU as an input names it.
struct NodeGpu {
  int index = 0;
  const core::GpuModel* model = nullptr;  // nullptr: named but not in the catalogue, or not named
  bool named = true;                       // false: listed without a name (a Rank line cut before it)
};

// The board's model when `gpus` are exactly 8, every named one the same model that
// eight_make_an_nvswitch_board, and at most `unnamed_allowed` unnamed; nullptr otherwise.
const core::GpuModel* nvswitch_board_model(const std::vector<NodeGpu>& gpus, int unnamed_allowed);

// Every node of a multi-node input as an NVSwitch board of one model.
struct NodeBoards {
  const core::GpuModel* model = nullptr;  // nullptr: the rule does not hold for every node
  std::vector<std::string> hosts;         // in order of first appearance
  std::vector<int> unnamed;               // GPUs listed without a name, taken as modules of their node's board
};

// `gpus` = (host, GPU) for every GPU of the input. The rule holds when there are 2 or more hosts,
// each with exactly 8 GPUs forming nvswitch_board_model of the same model, and at most one GPU
// of the whole input is unnamed: a paste is cut once, and the last Rank line is the one cut.
NodeBoards nvswitch_boards_per_node(const std::vector<std::pair<std::string, NodeGpu>>& gpus);

// "2 nodes (gpu47, gpu48) of 8 H200 SXM 141GB modules each"; "" when the rule does not hold.
std::string describe_boards(const NodeBoards& boards);
// "GPU 15 is listed without its model (its line is cut) and taken as the 8th module of its node's
// board, ..."; "" when every GPU is named.
std::string describe_unnamed(const NodeBoards& boards);

// classify_without_matrix for a machine whose GPUs carry their host (a multi-node log): NVSwitch
// within each node, inferred, when nvswitch_boards_per_node holds; nullopt otherwise.
std::optional<core::InterconnectSummary> classify_nodes_without_matrix(const View& v);

}  // namespace gpuvet::analysis
