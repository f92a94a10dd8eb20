// Collective bandwidth envelopes for offers. NVSwitch machines use analysis/'s envelope (the one
// gpuvet nccl judges against); the other classes use the sourced figures below.
#include "plan/fabric.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "analysis/collective_envelope.hpp"

namespace gpuvet::plan {

namespace {

using core::InterconnectClass;

// NVLink rings outside NVSwitch: DGX-1 V100 (hybrid cube mesh) passes at 110 of 150 GB/s (Azure
// NHC nd40rs_v2.conf), 2x H100 NVL bridged at 208 of 300 (nc80adis_h100_v5.conf): ~0.7.
constexpr double kNvlinkRingEfficiency = 0.70;
constexpr const char* kNvlinkRingSource = "NVLink ring without NVSwitch: DGX-1 V100 110 of 150, 2x H100 NVL 208 of 300 "
                                          "GB/s (Azure NHC floors; perf-anchors 2.1, 2.2)";
// Ring all_reduce through PCIe: Gen4 boxes 8-25 GB/s observed (4x A100 PCIe floor 25), Gen5 boxes
// 28-41 (perf-anchors 0.1, 2.2); Gen3 scaled from Gen4.
double pcie_ring_gbps(int gen) {
  if (gen >= 5) return 30;
  if (gen == 4) return 20;
  return 10;
}
constexpr const char* kPcieSource = "PCIe ring: Gen4 boxes 8-25 GB/s, Gen5 28-41 (perf-anchors 0.1, 2.2)";
// InfiniBand ring: NDR 46-49 of 50 GB/s per NIC (nccl-tests#290, #267), as analysis/ uses.
constexpr double kIbRingEfficiency = 0.92;

// All-to-all over NVLink: DeepEP's intranode kernels reach 153-158 of H800's 200 GB/s per direction
// (deepseek-ai/DeepEP README) and 337 of H20's 450 (DeepEP#16): ~0.75 of the per-GPU NVLink rate.
constexpr double kNvlinkAllToAllEfficiency = 0.75;
constexpr const char* kNvlinkAllToAllSource = "DeepEP intranode: 153-158 of 200 GB/s on H800, 337 of 450 on H20 "
                                              "(deepseek-ai/DeepEP README; DeepEP#16, perf-anchors 1.1 and 3)";
// Between nodes DeepEP's internode kernels reach 43-47 of a 400 Gb/s NIC's 50 GB/s (DeepEP README):
// the same 0.92 as InfiniBand rings.

// busbw of `op` among `ranks` GPUs of one node.
GroupBandwidth intra(const Offer& o, Collective op, int ranks, int span) {
  GroupBandwidth g;
  const auto& m = o.measured;
  const bool whole_node = ranks >= o.gpus_per_node;
  if (m && whole_node && op == Collective::all_reduce && m->all_reduce_busbw_gbps) {
    return {*m->all_reduce_busbw_gbps, false, "measured all_reduce busbw, " + m->source};
  }
  if (m && whole_node && op == Collective::all_gather && m->all_gather_busbw_gbps) {
    return {*m->all_gather_busbw_gbps, false, "measured all_gather busbw, " + m->source};
  }
  const auto nvlink = o.gpu.nvlink_gbps_per_gpu();
  const bool in_island = span <= nvlink_island(o) && nvlink_island(o) > 1;
  if (o.interconnect == InterconnectClass::nvswitch_full_mesh) {
    const auto e = analysis::expected_busbw(op == Collective::all_reduce ? "all_reduce" : "all_gather", ranks, 1,
                                            &o.gpu, nvlink, o.interconnect);
    if (e.busbw_gbps) return {*e.busbw_gbps, false, e.basis};
  }
  if (in_island && nvlink) {
    g.busbw_gbps = *nvlink * kNvlinkRingEfficiency;
    g.basis = fmt::format("{:g} GB/s NVLink per GPU x {:.2f} ({})", *nvlink, kNvlinkRingEfficiency, kNvlinkRingSource);
    return g;
  }
  g.busbw_gbps = pcie_ring_gbps(o.gpu.pcie_gen);
  g.basis = fmt::format("{:g} GB/s for a Gen{} ring{} ({})", g.busbw_gbps, o.gpu.pcie_gen,
                        nvlink_island(o) > 1 ? " crossing PCIe between NVLink groups" : "", kPcieSource);
  return g;
}

}  // namespace

int nvlink_island(const Offer& o) {
  if (o.nvlink_island > 0) return o.nvlink_island;
  switch (o.interconnect) {
    case InterconnectClass::nvswitch_full_mesh:
    case InterconnectClass::nvlink_direct_full_mesh: return o.gpus_per_node;
    case InterconnectClass::nvlink_partial: return 2;  // bridged pairs unless the offer says more
    default: return 1;
  }
}

double node_nic_gbps(const Offer& o) { return o.nics_per_node * o.nic_gbit_s / 8.0 * kIbRingEfficiency; }

GroupBandwidth group_busbw(const Offer& o, Collective op, int ranks, int stride) {
  stride = std::max(1, stride);
  const int per_node = std::max(1, std::min(ranks, o.gpus_per_node / stride));
  GroupBandwidth local = per_node > 1 ? intra(o, op, per_node, per_node * stride) : GroupBandwidth{};
  if (ranks <= per_node) return local;
  // Crossing nodes: every group of this kind crosses at once and they share the node's NICs.
  const int groups_per_node = std::max(1, o.gpus_per_node / per_node);
  const double nic = node_nic_gbps(o) / groups_per_node;
  GroupBandwidth g;
  g.spans_nodes = true;
  const std::string nic_text =
      o.nics_per_node > 0
          ? fmt::format("{} NICs x {:g} Gb/s x {:.2f} (nccl-tests#290, #267) / {} groups = {:.1f} GB/s", o.nics_per_node,
                        o.nic_gbit_s, kIbRingEfficiency, groups_per_node, nic)
          : std::string("no NICs between the nodes");
  if (per_node > 1 && local.busbw_gbps < nic) {
    g.busbw_gbps = local.busbw_gbps;
    g.basis = "the node's own " + local.basis + "; the NICs carry more (" + nic_text + ")";
  } else {
    g.busbw_gbps = nic;
    g.basis = "between nodes: " + nic_text;
  }
  return g;
}

AllToAllPath all_to_all_path(const Offer& o, int ranks, int stride) {
  stride = std::max(1, stride);
  AllToAllPath a;
  a.local_ranks = std::max(1, std::min(ranks, o.gpus_per_node / stride));
  std::string intra_text;
  if (a.local_ranks > 1) {
    const auto nvlink = o.gpu.nvlink_gbps_per_gpu();
    if (nvlink && nvlink_island(o) > 1 && a.local_ranks * stride <= nvlink_island(o)) {
      a.intra_gbps = *nvlink * kNvlinkAllToAllEfficiency;
      intra_text = fmt::format("in the node {:g} GB/s NVLink per GPU x {:.2f} ({})", *nvlink, kNvlinkAllToAllEfficiency,
                               kNvlinkAllToAllSource);
    } else {
      a.intra_gbps = pcie_ring_gbps(o.gpu.pcie_gen);
      intra_text = fmt::format("in the node {:g} GB/s through PCIe Gen{}{} ({})", a.intra_gbps, o.gpu.pcie_gen,
                               nvlink_island(o) > 1 ? ", crossing between NVLink groups" : "", kPcieSource);
    }
  }
  std::string inter_text;
  if (ranks > a.local_ranks) {
    if (o.nics_per_node > 0 && o.nic_gbit_s > 0) {
      const double one_nic = o.nic_gbit_s / 8.0 * kIbRingEfficiency;
      a.inter_gbps = std::min(one_nic, node_nic_gbps(o) / std::max(1, o.gpus_per_node));
      inter_text = fmt::format("between nodes {:.1f} GB/s per GPU (one NIC's share: {} x {:g} Gb/s x {:.2f} over {} GPUs, "
                               "at most one NIC; nccl-tests#267, DeepEP internode 43-47 of 50 GB/s)",
                               a.inter_gbps, o.nics_per_node, o.nic_gbit_s, kIbRingEfficiency, o.gpus_per_node);
    } else {
      inter_text = "no NICs between the nodes";
    }
  }
  a.basis = intra_text.empty() ? inter_text : inter_text.empty() ? intra_text : intra_text + "; " + inter_text;
  return a;
}

GroupBandwidth p2p_rate(const Offer& o, bool across_nodes) {
  if (across_nodes) {
    const double share = node_nic_gbps(o) / std::max(1, o.gpus_per_node);
    return {share, true, fmt::format("a GPU's share of the NICs: {:.1f} GB/s", share)};
  }
  if (o.measured && o.measured->p2p_gbps) return {*o.measured->p2p_gbps, false, "measured peer copy, " + o.measured->source};
  const auto g = intra(o, Collective::all_gather, 2, 2);
  return {g.busbw_gbps, false, g.basis};
}

}  // namespace gpuvet::plan
