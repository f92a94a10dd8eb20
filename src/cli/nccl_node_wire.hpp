// What each rank of `gpuvet nccl` under mpirun sends rank 0: its node's facts as typed data (the
// inventory and NICs the cluster judge compares, the verdict, the findings, the peak busbw), and
// its full report rendered once, for --json only. Rank 0 decides on the typed fields alone.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/collective_envelope.hpp"
#include "analysis/scaling_nodes.hpp"
#include "cli/nccl_node.hpp"
#include "core/error.hpp"
#include "core/finding.hpp"
#include "core/verdict.hpp"

namespace gpuvet::cli {

struct NodeMessage {
  std::optional<core::Error> error;  // the node could not measure itself: nothing else is set
  std::string hostname;              // "" when unknown
  analysis::NodeInventory inventory;
  analysis::NodeNetwork network;
  core::Verdict verdict = core::Verdict::incomplete;
  std::vector<core::Finding> findings;
  std::string peak_busbw_op;         // the first collective with a peak busbw ("" when none)
  std::optional<double> peak_busbw_gbps;
  std::string report_json;           // the node's own JSON report (gpuvet nccl --json), shown as it is
};

// Rank `rank`'s message from its outcome.
NodeMessage node_message_of(const core::Result<NodeOutcome>& node, int rank);

std::string encode_node_message(const NodeMessage& message);
// internal error naming `rank` when the bytes are not a node message of this gpuvet.
core::Result<NodeMessage> decode_node_message(std::string_view bytes, int rank);

}  // namespace gpuvet::cli
