// The bandwidth a planned collective gets on an offer (plan/): NCCL busbw inside a node (measured
// in the offer's bundle, else the envelope of its interconnect class), and between nodes the NICs'
// rate at InfiniBand's ring efficiency. Pure.
#pragma once

#include <string>

#include "plan/offer.hpp"

namespace gpuvet::plan {

enum class Collective { all_reduce, all_gather };  // all_gather also stands for reduce_scatter

struct GroupBandwidth {
  double busbw_gbps = 0;
  bool spans_nodes = false;
  std::string basis;
};

// busbw of `op` among `ranks` GPUs placed `stride` apart (tensor-parallel groups stride 1,
// data-parallel groups stride tp): inside one node, or the lesser of that and the node's NICs
// shared by the groups that cross nodes at once.
GroupBandwidth group_busbw(const Offer& offer, Collective op, int ranks, int stride);

// Point-to-point rate of one pipeline send: inside a node (peer copy), or a GPU's share of the NICs.
GroupBandwidth p2p_rate(const Offer& offer, bool across_nodes);

// Where an all-to-all among `ranks` GPUs placed `stride` apart runs (MoE token dispatch/combine):
// `local_ranks` of them share a node and exchange over NVLink or PCIe at `intra_gbps` per GPU;
// the rest are on other nodes, reached through the GPU's NIC at `inter_gbps`. All-to-all cannot
// pool a node's NICs the way rings do (nccl-tests#267): each GPU gets one NIC's share.
struct AllToAllPath {
  int local_ranks = 1;
  double intra_gbps = 0;
  double inter_gbps = 0;
  std::string basis;
};
AllToAllPath all_to_all_path(const Offer& offer, int ranks, int stride);

// The NICs of one node at ring efficiency, GB/s (0 when the offer has none).
double node_nic_gbps(const Offer& offer);

// The GPUs of one NVLink group (all of the node for NVSwitch and direct meshes, 1 for PCIe only).
int nvlink_island(const Offer& offer);

}  // namespace gpuvet::plan
