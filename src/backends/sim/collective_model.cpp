// The simulator's collective model: per-pair paths from the simulated topology, NCCL's ring
// chosen from what the topology shows, times from a latency + bandwidth (alpha-beta) model.
#include "backends/sim/collective_model.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <numeric>

namespace gpuvet::sim {
namespace {

// --- The simulator's hardware assumptions (not the judge's envelope) -------------------------
// NCCL's Simple protocol writes 128-byte payloads over NVLink; with packet headers ~20 of each
// link's 25 GB/s carry data (sjeaugey, nccl-tests#149: "12 links x ~20 GB/s with 128 B payload").
constexpr double kNvlinkStoreEfficiency = 0.80;
// NVLS (NVLink SHARP): the switch reduces multimem loads; its reduction throughput relative to
// plain stores (NVSwitch gen 3). With n/(n+1) traffic per GPU it reproduces the shape of the
// published 4..8-GPU H200 curve (ml-engineering network/README.md: NVLS engages above 4 GPUs).
constexpr double kNvlsReduceEfficiency = 0.86;
constexpr int kNvlsMinRanks = 5;
// Ring pipelines lose a little to step synchronisation between chunks.
constexpr double kRingPipelineEfficiency = 0.98;
// PCIe P2P through one switch moves ~83 % of the line rate, through the root complex ~70 %
// (nvbandwidth#50: 26.3 GB/s same switch, 21.8-22.7 across, Gen4 x16 = 31.5).
constexpr double kPcieSwitchEfficiency = 0.83;
constexpr double kPcieRootEfficiency = 0.70;
constexpr double kPcieNodeEfficiency = 0.62;  // across host bridges of one socket
// Through host memory (no P2P, or across sockets where NCCL uses shared memory): two copies
// and the inter-socket link; ~45 % of the slower GPU's PCIe link.
constexpr double kHostStagedEfficiency = 0.45;
// Latency: kernel launch and NCCL's proxy/handshake, then per pipeline step.
constexpr double kLaunchUs = 8.0;
constexpr double kNvlinkStepUs = 1.0;
constexpr double kPcieStepUs = 2.0;
constexpr double kHostStepUs = 5.0;
// Between nodes: NCCL's ring over InfiniBand moves 92-98 % of a NIC's line rate (NDR 46-49 of
// 50 GB/s, nccl-tests#290/#267; HDR ~24 of 25, nccl-tests#160; perf-anchors.md 1.5); the
// simulator takes the middle. RoCE is assumed to match (no published figure).
constexpr double kNicEfficiency = 0.94;
// A node without an ACTIVE RDMA port: NCCL falls back to TCP sockets (NCCL_NET=Socket); an
// assumption of ~1 GB/s for a host's Ethernet under NCCL's socket transport.
constexpr double kSocketFallbackGbps = 1.0;
// Per-step latency of a hop between nodes (IB send/recv through NCCL's proxy): an assumption.
constexpr double kNetStepUs = 6.0;
// Below a few chunks per channel the pipeline is not full: a message of S bytes moves as if it were
// S + min(S, kPipelineFillBytes) (half the peak at 16 MiB; tiny messages stay latency-bound).
constexpr double kPipelineFillBytes = 16.0 * 1024 * 1024;

double with_fill(double bytes) { return bytes + std::min(bytes, kPipelineFillBytes); }

int active_ports(const SimGpu& gpu) {
  return static_cast<int>(std::count_if(gpu.ports.begin(), gpu.ports.end(), [](const SimPort& p) { return p.active; }));
}

double step_us(PathKind kind) {
  switch (kind) {
    case PathKind::nvswitch:
    case PathKind::nvlink: return kNvlinkStepUs;
    case PathKind::pcie_p2p: return kPcieStepUs;
    case PathKind::host_memory: return kHostStepUs;
  }
  return kHostStepUs;
}

// Bytes-per-microsecond from GB/s.
double bytes_per_us(double gbps) { return gbps * 1e3; }

// What a ring collective of n ranks costs: the bytes each link carries (in units of the message)
// and the latency steps it takes. alltoall is modelled elsewhere (1, 1 here).
struct RingTraffic {
  double factor = 1;
  double steps = 1;
};

RingTraffic ring_traffic(api::CollectiveOp op, double n) {
  switch (op) {
    case api::CollectiveOp::all_reduce: return {2 * (n - 1) / n, 2 * (n - 1)};
    case api::CollectiveOp::all_gather:
    case api::CollectiveOp::reduce_scatter: return {(n - 1) / n, n - 1};
    case api::CollectiveOp::broadcast: return {1, n - 1};
    case api::CollectiveOp::sendrecv:
    case api::CollectiveOp::alltoall: return {1, 1};
  }
  return {1, 1};
}

}  // namespace

double CollectiveModel::pcie_gbps(int gpu) const {
  const SimGpu& g = state_.gpus[static_cast<std::size_t>(gpu)];
  // An unknown generation counts as Gen3, the slowest any simulated GPU links at.
  return core::pcie_lane_gbps(g.pcie_gen_current).value_or(0.985) * g.pcie_width_current;
}

double CollectiveModel::nvlink_egress_gbps(int gpu) const {
  const SimGpu& g = state_.gpus[static_cast<std::size_t>(gpu)];
  return active_ports(g) * g.model->nvlink_link_gbps.value_or(0);
}

PairPath CollectiveModel::path(int a, int b) const {
  const SimGpu& ga = state_.gpus[static_cast<std::size_t>(a)];
  const SimGpu& gb = state_.gpus[static_cast<std::size_t>(b)];
  const bool consumer = ga.model->card_class == core::CardClass::consumer || gb.model->card_class == core::CardClass::consumer;
  const bool p2p = !ga.p2p_disabled && !gb.p2p_disabled && !consumer;  // stock GeForce drivers: no P2P
  PairPath out;
  double nvlink = 0;
  if (p2p && state_.profile.fabric == NvlinkFabric::nvswitch) {
    nvlink = std::min(nvlink_egress_gbps(a), nvlink_egress_gbps(b));
    out.kind = PathKind::nvswitch;
  } else if (p2p) {
    int links = 0;
    for (const auto& port : ga.ports) links += (port.active && port.peer_gpu == b) ? 1 : 0;
    nvlink = links * ga.model->nvlink_link_gbps.value_or(0);
    out.kind = PathKind::nvlink;
  }
  if (nvlink > 0) {
    out.planned_gbps = nvlink * kNvlinkStoreEfficiency;
  } else {
    const double line = std::min(pcie_gbps(a), pcie_gbps(b));
    const bool same_bridge = ga.host_bridge == gb.host_bridge;
    const auto& bridges = state_.profile.host_bridges;
    const bool same_socket = bridges[static_cast<std::size_t>(ga.host_bridge)].numa_node ==
                             bridges[static_cast<std::size_t>(gb.host_bridge)].numa_node;
    double eff = kHostStagedEfficiency;
    out.kind = PathKind::host_memory;
    if (p2p && same_bridge && ga.pcie_switch >= 0 && ga.pcie_switch == gb.pcie_switch) {
      eff = kPcieSwitchEfficiency;
    } else if (p2p && same_bridge) {
      eff = kPcieRootEfficiency;
    } else if (p2p && same_socket) {
      eff = kPcieNodeEfficiency;
    }
    if (eff != kHostStagedEfficiency) out.kind = PathKind::pcie_p2p;
    out.planned_gbps = line * eff;
  }
  out.actual_gbps = out.planned_gbps * std::min(ga.straggler_factor, gb.straggler_factor);
  for (const auto& slow : state_.slow_links) {
    if (slow.a == std::min(a, b) && slow.b == std::max(a, b)) out.actual_gbps *= slow.factor;
  }
  out.latency_us = step_us(out.kind);
  return out;
}

bool CollectiveModel::nvls_usable(const std::vector<int>& gpus) const {
  if (state_.profile.fabric != NvlinkFabric::nvswitch || static_cast<int>(gpus.size()) < kNvlsMinRanks) return false;
  for (int g : gpus) {
    const SimGpu& gpu = state_.gpus[static_cast<std::size_t>(g)];
    const auto& arch = gpu.model->architecture;
    if (arch != "Hopper" && arch != "Blackwell") return false;  // NVSwitch gen 3+ only (nccl-tests#228)
    if (gpu.p2p_disabled || active_ports(gpu) == 0) return false;
  }
  return true;
}

// NCCL searches rings on the topology it can see: the order whose slowest planned hop is fastest;
// among equals, the first in rank order. Hidden faults do not steer it.
std::vector<int> CollectiveModel::best_ring(const std::vector<int>& gpus) const {
  const std::size_t n = gpus.size();
  auto slowest = [&](const std::vector<int>& order) {
    double worst = std::numeric_limits<double>::max();
    for (std::size_t i = 0; i < order.size(); ++i) {
      worst = std::min(worst, path(order[i], order[(i + 1) % order.size()]).planned_gbps);
    }
    return worst;
  };
  std::vector<int> best = gpus;
  if (n <= 3 || n > 9) return best;
  double best_slowest = slowest(best);
  std::vector<int> rest(gpus.begin() + 1, gpus.end());
  std::vector<std::size_t> idx(rest.size());
  std::iota(idx.begin(), idx.end(), 0);
  while (std::next_permutation(idx.begin(), idx.end())) {
    std::vector<int> order{gpus.front()};
    for (std::size_t i : idx) order.push_back(rest[i]);
    const double s = slowest(order);
    if (s > best_slowest * (1 + 1e-9)) {
      best_slowest = s;
      best = std::move(order);
    }
  }
  return best;
}

// Each GPU sends bytes/n to every peer. Transfers that share a physical channel (the GPU's
// NVSwitch ports, or its PCIe link) queue; direct NVLink pairs run in parallel.
double CollectiveModel::alltoall_us(const std::vector<int>& gpus, std::uint64_t bytes) const {
  const double share = static_cast<double>(bytes) / static_cast<double>(gpus.size());
  double worst = 0;
  for (int g : gpus) {
    std::map<int, double> channel_us;
    for (int p : gpus) {
      if (p == g) continue;
      const PairPath pp = path(g, p);
      const int channel = pp.kind == PathKind::nvlink ? 1 + p : (pp.kind == PathKind::nvswitch ? 0 : -1);
      channel_us[channel] += with_fill(share) / bytes_per_us(pp.actual_gbps);
    }
    for (const auto& [channel, us] : channel_us) worst = std::max(worst, us);
  }
  return worst;
}

NodeShare CollectiveModel::node_share(const std::vector<int>& gpus) const {
  NodeShare out;
  out.ranks = static_cast<int>(gpus.size());
  out.ring_gbps = std::numeric_limits<double>::max();
  if (gpus.size() > 1) {
    const auto ring = best_ring(gpus);
    for (std::size_t i = 0; i < ring.size(); ++i) {
      const PairPath pp = path(ring[i], ring[(i + 1) % ring.size()]);
      out.ring_gbps = std::min(out.ring_gbps, pp.actual_gbps * kRingPipelineEfficiency);
      out.step_us = std::max(out.step_us, pp.latency_us);
    }
  }
  std::vector<double> nics;  // GB/s each ACTIVE NIC carries
  for (const auto& nic : state_.profile.nics) {
    if (nic.state == "ACTIVE" && nic.rate_gbit_s > 0) nics.push_back(nic.rate_gbit_s / 8.0 * kNicEfficiency);
  }
  if (nics.empty()) {
    out.net_gbps = out.one_nic_gbps = kSocketFallbackGbps;
    return out;
  }
  // One ring (channel) per local GPU, dealt round-robin over the ACTIVE NICs; the rings move in
  // step, so the NIC carrying the most rings per GB/s sets every ring's rate.
  const std::size_t rings = std::max<std::size_t>(gpus.size(), 1);
  double per_ring = std::numeric_limits<double>::max();
  for (std::size_t i = 0; i < nics.size(); ++i) {
    const std::size_t on_nic = rings / nics.size() + (i < rings % nics.size() ? 1 : 0);
    if (on_nic > 0) per_ring = std::min(per_ring, nics[i] / static_cast<double>(on_nic));
  }
  out.net_gbps = per_ring * static_cast<double>(rings);
  out.one_nic_gbps = *std::max_element(nics.begin(), nics.end());
  return out;
}

CollectiveEstimate CollectiveModel::across_nodes(api::CollectiveOp op, const std::vector<NodeShare>& nodes,
                                                 std::uint64_t bytes) {
  using api::CollectiveOp;
  CollectiveEstimate out;
  out.algorithm = "ring";
  double n = 0;
  double bw = std::numeric_limits<double>::max();
  double p2p = std::numeric_limits<double>::max();
  double step = kNetStepUs;
  for (const auto& node : nodes) {
    n += node.ranks;
    bw = std::min({bw, node.ring_gbps, node.net_gbps});
    p2p = std::min({p2p, node.ring_gbps, node.one_nic_gbps});
    step = std::max(step, node.step_us);
  }
  const double s = static_cast<double>(bytes);
  if (op == CollectiveOp::alltoall) {
    // Each rank sends bytes/n to every peer; a node's remote share leaves through its NICs.
    double worst = 0;
    for (const auto& node : nodes) {
      const double remote = node.ranks * (n - node.ranks) / n;
      worst = std::max(worst, remote * with_fill(s) / bytes_per_us(node.net_gbps));
    }
    out.algorithm = "alltoall";
    out.time_us = kLaunchUs + step + worst;
    return out;
  }
  if (op == CollectiveOp::sendrecv) {
    bw = p2p;
    out.algorithm = "p2p";
  }
  const RingTraffic t = ring_traffic(op, n);
  out.time_us = kLaunchUs + t.steps * step + t.factor * with_fill(s) / bytes_per_us(bw);
  return out;
}

CollectiveEstimate CollectiveModel::estimate(api::CollectiveOp op, const std::vector<int>& gpus, std::uint64_t bytes,
                                             bool in_place, bool allow_nvls) const {
  using api::CollectiveOp;
  CollectiveEstimate out;
  const auto n = static_cast<double>(gpus.size());
  const double s = static_cast<double>(bytes);
  if (gpus.size() == 1) {
    // One rank: NCCL copies send to receive buffer (nothing for in-place): HBM read + write.
    const SimGpu& g = state_.gpus[static_cast<std::size_t>(gpus.front())];
    const double hbm = g.model->memory_bandwidth_gbps.value_or(1000) * g.straggler_factor;
    out.algorithm = "local";
    out.time_us = kLaunchUs + (in_place ? 0.0 : 2.0 * s / bytes_per_us(hbm));
    return out;
  }
  if (op == CollectiveOp::alltoall) {
    double step = 0;
    for (int a : gpus) {
      for (int b : gpus) {
        if (a != b) step = std::max(step, path(a, b).latency_us);
      }
    }
    out.algorithm = "alltoall";
    out.time_us = kLaunchUs + step + alltoall_us(gpus, bytes);
    return out;
  }
  if (op == CollectiveOp::all_reduce && allow_nvls && nvls_usable(gpus)) {
    double rate = std::numeric_limits<double>::max();
    for (int g : gpus) {
      const double f = state_.gpus[static_cast<std::size_t>(g)].straggler_factor;
      rate = std::min(rate, nvlink_egress_gbps(g) * kNvlinkStoreEfficiency * f);
    }
    const double algbw = rate * kNvlsReduceEfficiency * n / (n + 1);
    out.algorithm = "nvls";
    out.ring = gpus;
    out.time_us = kLaunchUs + 4 * kNvlinkStepUs + with_fill(s) / bytes_per_us(algbw);
    return out;
  }
  // sendrecv: nccl-tests sends to rank+1 in rank order; everything else runs on NCCL's ring.
  out.ring = op == CollectiveOp::sendrecv ? gpus : best_ring(gpus);
  out.algorithm = op == CollectiveOp::sendrecv ? "p2p" : "ring";
  double ring_gbps = std::numeric_limits<double>::max();
  double step = 0;
  for (std::size_t i = 0; i < out.ring.size(); ++i) {
    const PairPath pp = path(out.ring[i], out.ring[(i + 1) % out.ring.size()]);
    ring_gbps = std::min(ring_gbps, pp.actual_gbps);
    step = std::max(step, pp.latency_us);
  }
  ring_gbps *= kRingPipelineEfficiency;
  const RingTraffic t = ring_traffic(op, n);
  out.time_us = kLaunchUs + t.steps * step + t.factor * with_fill(s) / bytes_per_us(ring_gbps);
  return out;
}

}  // namespace gpuvet::sim
