// The expected large-message busbw of an NCCL collective on a machine (analysis/; gpuvet nccl
// reads NodeNetwork and CollectiveAlgorithm through collective_judge.hpp):
// the fabric's per-GPU line rate times an efficiency measured on healthy machines of the same
// architecture (../shared/reference/perf-anchors.md section 2); across nodes, the lesser of that
// and the NICs' rate times a published IB efficiency (perf-anchors.md sections 1.5 and 2.3).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/assessment.hpp"
#include "core/gpu_model.hpp"
#include "core/machine.hpp"

namespace gpuvet::analysis {

struct BusbwExpectation {
  core::Reading<double> busbw_gbps;
  std::string basis;  // the arithmetic and its sources, or why there is no expectation
};

// `model` is the GPUs' catalogue model (nullptr when unknown or mixed); `per_gpu_nvlink_gbps`
// the fabric's per-GPU, per-direction NVLink rate when the GPUs meet in NVSwitches.
BusbwExpectation expected_busbw(std::string_view op, int ranks, int nodes, const core::GpuModel* model,
                                const core::Reading<double>& per_gpu_nvlink_gbps, core::InterconnectClass cls);

// How NCCL was told to run: its own choice (NVLS for all_reduce on NVSwitch gen 3+ above 4 GPUs),
// or NVLS off (NCCL_NVLS_ENABLE=0: ring) or on (NCCL_NVLS_ENABLE=1) for an on/off comparison.
enum class CollectiveAlgorithm { nccl_default, ring, nvls };

// As above, with the algorithm forced: `ring` judges against the ring efficiency even where NCCL
// would pick NVLS; `nvls` has an expectation only where NVLS exists (all_reduce, NVSwitch gen 3+,
// more than 4 ranks) and is absent with the reason elsewhere.
BusbwExpectation expected_busbw(std::string_view op, int ranks, int nodes, const core::GpuModel* model,
                                const core::Reading<double>& per_gpu_nvlink_gbps, core::InterconnectClass cls,
                                CollectiveAlgorithm algorithm);

// Why NVLS cannot run on these GPUs of the machine (empty when it can): it needs all_reduce on
// more than 4 GPUs of NVSwitch gen 3+ (Hopper, Blackwell) joined by NVSwitch.
std::string nvls_unsupported_reason(const core::GpuModel* model, core::InterconnectClass cls, int ranks);

// What one node's NICs can carry to the others, from the sysfs reading (core::Machine::nics).
struct NodeNetwork {
  std::string host;            // "rank 1 (host)"
  bool described = false;      // the machine listed its NICs at all
  int nics = 0;                // RDMA ports listed
  int active_nics = 0;         // ports in state ACTIVE
  double active_gbit_s = 0;    // sum of the ACTIVE ports' rates (Gb/s, IB/RoCE convention)
  double fastest_gbit_s = 0;   // fastest ACTIVE port
  std::string link_layer;      // link layer most ACTIVE ports share ("InfiniBand", "Ethernet", "")
};

NodeNetwork network_of(const core::Machine& machine, std::string host);

// Cross-node busbw of `op` with `local_ranks` GPUs on each of `nodes` nodes: the lesser of the
// node's own ring envelope (NVLS off: NCCL_ALGO=Ring measures the NICs) and the NICs most nodes
// have (ACTIVE count x rate) x the IB efficiency. A node with less than most is what the
// measurement should reveal, so it does not lower the expectation; `networks` holds every node.
BusbwExpectation expected_cross_node_busbw(std::string_view op, int local_ranks, int nodes, const core::GpuModel* model,
                                           const core::Reading<double>& per_gpu_nvlink_gbps, core::InterconnectClass cls,
                                           const std::vector<NodeNetwork>& networks);

// The network most nodes have (by ACTIVE capacity; a tie goes to the larger), or nullptr when
// no node described its NICs.
const NodeNetwork* usual_network(const std::vector<NodeNetwork>& networks);

}  // namespace gpuvet::analysis
