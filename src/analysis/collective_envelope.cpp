// Efficiencies of NCCL collectives on NVSwitch machines and over InfiniBand between nodes, from
// published healthy-machine numbers.
#include "analysis/collective_envelope.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "analysis/rule_support.hpp"

namespace gpuvet::analysis {

namespace {

struct Efficiency {
  double nvls_all_reduce;  // NVLink SHARP all_reduce (NVSwitch gen 3+, more than 4 GPUs); 0 = none
  double ring;             // ring/tree all_reduce and the other collectives
  const char* source;
};

// busbw / per-GPU NVLink line rate measured on healthy 8-GPU NVSwitch machines.
const Efficiency* efficiency_for(const std::string& architecture) {
  // Hopper: all_reduce NVLS ~480 and ring ~370 GB/s on 8x H100/H200 over 450 GB/s (nccl-tests#212,
  // sjeaugey; ml-engineering network/README.md: 8x H200 480.0 NVLS / 367.2 ring / 361.4 all_gather
  // at 16 GiB). H800 (8 links, 200 GB/s): 215 NVLS (nccl#1374) fits the same ratio.
  static const Efficiency hopper{480.0 / 450.0, 367.0 / 450.0,
                                 "8x H100/H200: NVLS all_reduce ~480, ring ~367 GB/s of 450 (nccl-tests#212; "
                                 "ml-engineering network/README.md)"};
  // Ampere: ~230 GB/s all_reduce on 8x A100 over 300 GB/s (nccl-tests#149, #175; Azure NHC floor
  // 228). A800 (8 links, 200 GB/s): ~160 expected (nccl#412) fits the same ratio.
  static const Efficiency ampere{0.0, 230.0 / 300.0,
                                 "8x A100: ~230 GB/s of 300 (nccl-tests#149, #175; Azure NHC floor 228)"};
  // Blackwell: 838 NVLS / 682 ring all_reduce on 8x B200 over 900 GB/s (ml-engineering).
  static const Efficiency blackwell{838.0 / 900.0, 682.0 / 900.0,
                                    "8x B200: NVLS all_reduce 838, ring 682 GB/s of 900 (ml-engineering "
                                    "network/README.md)"};
  if (architecture == "Hopper") return &hopper;
  if (architecture == "Ampere") return &ampere;
  if (architecture == "Blackwell") return &blackwell;
  return nullptr;
}

// Ring all_reduce between nodes over InfiniBand moves ~92 % of the NICs' line rate: NDR 46-49 of
// 50 GB/s per NIC (nccl-tests#290, #267, AddyLaddy), HDR ~24 of 25 (nccl-tests#160, sjeaugey), a
// 4x HDR ring at 93-97 of 100 judged good (nccl-tests#252). The lower end, so a healthy fabric
// passes; perf-anchors.md sections 1.5 and 2.3.
constexpr double kIbRingEfficiency = 0.92;
constexpr const char* kIbSource = "NDR 46-49 of 50 GB/s per NIC, HDR ~24 of 25 (nccl-tests#290, #267, #160, #252)";
// RoCE: no published NCCL ring figure in perf-anchors.md; assumed equal to InfiniBand.
constexpr const char* kRoceSource = "RoCE assumed to reach InfiniBand's ring efficiency (no published figure)";

bool ring_op(std::string_view op) {
  return op == "all_reduce" || op == "all_gather" || op == "reduce_scatter" || op == "broadcast";
}

}  // namespace

std::string nvls_unsupported_reason(const core::GpuModel* model, core::InterconnectClass cls, int ranks) {
  if (cls != core::InterconnectClass::nvswitch_full_mesh) {
    return fmt::format("NVLS needs NVSwitch; this machine is {}", core::to_string(cls));
  }
  if (model == nullptr) return "GPU model unknown or mixed";
  const Efficiency* eff = efficiency_for(model->architecture);
  if (eff == nullptr || eff->nvls_all_reduce <= 0) {
    return fmt::format("NVLS needs NVSwitch gen 3+ (Hopper, Blackwell); these GPUs are {}", model->architecture);
  }
  if (ranks <= 4) return fmt::format("NVLS engages only above 4 GPUs; this run has {}", ranks);
  return "";
}

BusbwExpectation expected_busbw(std::string_view op, int ranks, int nodes, const core::GpuModel* model,
                                const core::Reading<double>& per_gpu_nvlink_gbps, core::InterconnectClass cls) {
  return expected_busbw(op, ranks, nodes, model, per_gpu_nvlink_gbps, cls, CollectiveAlgorithm::nccl_default);
}

BusbwExpectation expected_busbw(std::string_view op, int ranks, int nodes, const core::GpuModel* model,
                                const core::Reading<double>& per_gpu_nvlink_gbps, core::InterconnectClass cls,
                                CollectiveAlgorithm algorithm) {
  BusbwExpectation out;
  auto none = [&](std::string why) {
    out.busbw_gbps = core::Reading<double>::absent(why);
    out.basis = std::move(why);
    return out;
  };
  if (nodes > 1) return none("multi-node run: busbw is set by the NICs between nodes, which the log does not describe");
  if (cls == core::InterconnectClass::unknown) {
    return none("the machine's interconnect is unknown: give nvidia-smi topo -m and nvidia-smi -q of the same "
                "machine (a log alone is enough only for 8 SXM GPUs of a known model on one node)");
  }
  if (cls != core::InterconnectClass::nvswitch_full_mesh) {
    return none(fmt::format("no published envelope for {} machines yet (only NVSwitch machines are judged)",
                            core::to_string(cls)));
  }
  if (model == nullptr) return none("GPU model unknown or mixed");
  if (!per_gpu_nvlink_gbps) return none("per-GPU NVLink rate unknown: " + per_gpu_nvlink_gbps.reason());
  const Efficiency* eff = efficiency_for(model->architecture);
  if (eff == nullptr) return none("no published collective numbers for " + model->architecture + " NVSwitch machines");
  if (ranks < 2) return none("a single rank moves no data between GPUs");
  const bool nvls_possible = op == "all_reduce" && eff->nvls_all_reduce > 0 && ranks > 4;
  if (algorithm == CollectiveAlgorithm::nvls && !nvls_possible) {
    return none(op != "all_reduce" ? std::string("NVLS runs only all_reduce")
                                   : nvls_unsupported_reason(model, cls, ranks));
  }
  const bool nvls = nvls_possible && algorithm != CollectiveAlgorithm::ring;
  const double e = nvls ? eff->nvls_all_reduce : eff->ring;
  out.busbw_gbps = *per_gpu_nvlink_gbps * e;
  out.basis = fmt::format("{} GB/s NVLink per GPU x {:.2f} ({}{}{})", format_gbps(*per_gpu_nvlink_gbps), e,
                          nvls ? "NVLS all_reduce; " : "",
                          algorithm == CollectiveAlgorithm::ring && nvls_possible ? "NVLS off: ring; " : "", eff->source);
  return out;
}

NodeNetwork network_of(const core::Machine& machine, std::string host) {
  NodeNetwork n;
  n.host = std::move(host);
  if (!machine.nics) return n;
  n.described = true;
  std::map<std::string, int> layers;
  for (const auto& nic : *machine.nics) {
    ++n.nics;
    if (!nic.state || *nic.state != "ACTIVE" || !nic.rate_gbit_s) continue;
    ++n.active_nics;
    n.active_gbit_s += *nic.rate_gbit_s;
    n.fastest_gbit_s = std::max(n.fastest_gbit_s, *nic.rate_gbit_s);
    ++layers[nic.link_layer ? *nic.link_layer : std::string()];
  }
  int best = 0;
  for (const auto& [layer, count] : layers) {
    if (count > best) {
      best = count;
      n.link_layer = layer;
    }
  }
  return n;
}

const NodeNetwork* usual_network(const std::vector<NodeNetwork>& networks) {
  std::map<double, int> counts;
  for (const auto& n : networks) {
    if (n.described) ++counts[n.active_gbit_s];
  }
  const NodeNetwork* best = nullptr;
  int best_count = 0;
  for (const auto& n : networks) {
    if (!n.described) continue;
    const int c = counts[n.active_gbit_s];
    if (c > best_count || (c == best_count && best != nullptr && n.active_gbit_s > best->active_gbit_s)) {
      best = &n;
      best_count = c;
    }
  }
  return best;
}

BusbwExpectation expected_cross_node_busbw(std::string_view op, int local_ranks, int nodes, const core::GpuModel* model,
                                           const core::Reading<double>& per_gpu_nvlink_gbps, core::InterconnectClass cls,
                                           const std::vector<NodeNetwork>& networks) {
  BusbwExpectation out;
  auto none = [&](std::string why) {
    out.busbw_gbps = core::Reading<double>::absent(why);
    out.basis = std::move(why);
    return out;
  };
  if (nodes < 2) return expected_busbw(op, local_ranks, 1, model, per_gpu_nvlink_gbps, cls);
  if (!ring_op(op)) {
    return none(fmt::format("no published cross-node envelope for {} (alltoall cannot aggregate NICs, "
                            "nccl-tests#267)", op));
  }
  const NodeNetwork* usual = usual_network(networks);
  if (usual == nullptr) return none("the nodes' NICs are unknown (no RDMA ports in sysfs)");
  if (usual->active_nics == 0) return none("most nodes have no ACTIVE RDMA port");
  const BusbwExpectation node = expected_busbw(op, local_ranks, 1, model, per_gpu_nvlink_gbps, cls, CollectiveAlgorithm::ring);
  if (!node.busbw_gbps) return none("the node's own envelope is unknown: " + node.basis);
  const bool ib = usual->link_layer == "InfiniBand";
  // NCCL's rings leave a node through the NIC nearest each GPU: at most one NIC per local GPU
  // counts (storage or management ports beyond that carry no collective traffic).
  const int used = std::min(usual->active_nics, std::max(local_ranks, 1));
  const double mean_gbit_s = usual->active_gbit_s / usual->active_nics;
  const double used_gbit_s = mean_gbit_s * used;
  const double nic_gbps = used_gbit_s / 8.0 * kIbRingEfficiency;  // Gb/s -> GB/s
  const std::string network = fmt::format("{} NICs x {:g} Gb/s{} = {} GB/s x {:.2f} ({}) = {} GB/s", used, mean_gbit_s,
                                          usual->link_layer.empty() ? "" : " " + usual->link_layer,
                                          format_gbps(used_gbit_s / 8.0), kIbRingEfficiency,
                                          ib ? kIbSource : kRoceSource, format_gbps(nic_gbps));
  if (nic_gbps < *node.busbw_gbps) {
    out.busbw_gbps = nic_gbps;
    out.basis = fmt::format("between nodes, the NICs most nodes have: {}; below the node's own {} GB/s", network,
                            format_gbps(*node.busbw_gbps));
  } else {
    out.busbw_gbps = *node.busbw_gbps;
    out.basis = fmt::format("the node's own ring envelope, {}; the NICs ({}) carry more", node.basis, network);
  }
  return out;
}

}  // namespace gpuvet::analysis
