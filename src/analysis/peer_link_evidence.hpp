// Measured peer copies as evidence of the links between GPUs (issue 17, nccl#1264): a GPU pair
// that nvbandwidth or p2pBandwidthLatencyTest measured faster than any PCIe link can carry is
// joined by NVLink, and a GPU whose peers together took more than any GPU's NVLinks carry reaches
// them through NVSwitch. Low numbers prove nothing: a degraded NVLink is slow too.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/assessment.hpp"
#include "core/bandwidth.hpp"
#include "core/gpu_model.hpp"
#include "core/machine.hpp"

namespace gpuvet::analysis {

// What a PCIe link carries at most per direction: PCIe 6.0 x16 is 64 GT/s x 16 lanes = 128 GB/s
// raw, ~121 GB/s after FLIT overhead (/work/shared/reference/perf-anchors.md 1.3; the fastest
// GPU in profiles/gpus.yaml is PCIe 5.0 x16, 63 GB/s). A peer copy above this is not PCIe.
inline constexpr double kPcieMaxGbps = 128.0;

struct PeerLinkEvidence {
  std::string source;     // "p2pBandwidthLatencyTest (file)"
  std::string testcase;   // the matrix the pairs come from
  std::vector<std::pair<int, int>> nvlink_pairs;  // (row GPU, column GPU) measured above kPcieMaxGbps
  double slowest_gbps = 0;  // the slowest and fastest of those pairs
  double fastest_gbps = 0;
  int matrix_gpus = 0;      // GPUs the matrix labels (0..n-1)
  // A GPU whose NVLink peers (one row or one column: one direction) took more in all than any
  // GPU's NVLinks carry per direction; -1 when none did.
  int switch_gpu = -1;
  int switch_peers = 0;
  double switch_sum_gbps = 0;
  double most_nvlink_gbps = 0;     // the most any catalogued GPU's NVLinks carry per direction
  std::string most_nvlink_model;   // its display name
};

// The unidirectional peer matrix (P2P enabled, CE or p2pBandwidthLatencyTest) with the most pairs
// above kPcieMaxGbps, read as evidence; nullopt when no pair is. Pairs without P2P access and the
// diagonal (a device-local copy) are not read. A cell cut by the paste is a lower bound of its value.
std::optional<PeerLinkEvidence> read_peer_links(const std::vector<core::BandwidthRun>& runs, const core::Catalog& catalog);

// infer_interconnect_from_peer_bandwidth (judge.hpp) applies this to the machine's class.

}  // namespace gpuvet::analysis
