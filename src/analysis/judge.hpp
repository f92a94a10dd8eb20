// The judge's entry points: classify a machine's GPU interconnect and judge the whole machine
// against the GPU catalogue and what the buyer expects. Pure functions; called by the CLI.
#pragma once

#include <optional>
#include <string>

#include "core/assessment.hpp"
#include "core/bandwidth.hpp"
#include "core/collective.hpp"
#include "core/gpu_model.hpp"
#include "core/machine.hpp"
#include "core/vram.hpp"

namespace gpuvet::analysis {

// What the buyer was promised, from the command line. Every field is optional: an absent
// expectation is simply not checked.
struct Expectations {
  std::optional<core::InterconnectClass> interconnect;  // --expect nvswitch|nvlink|pcie or a class name
  bool interconnect_any_nvlink_mesh = false;            // "--expect nvlink": either NVLink full mesh is fine
  std::optional<double> memory_gib;                     // --expect-memory: GiB per GPU as advertised
  std::optional<int> gpu_count;                         // --expect-gpus
  std::optional<std::string> workload;                  // "train" | "infer": other card classes fail
  std::optional<std::string> model_id = std::nullopt;   // --expect-model: catalogue id of the model sold
  bool same_batch = false;  // --expect-same-batch: VBIOS, board part number and memory size differing fail
  // --expect-nic COUNTxRATE: RDMA NICs per node and their rate (Gb/s), for multi-node logs.
  std::optional<int> nic_count = std::nullopt;
  std::optional<double> nic_gbit_s = std::nullopt;
};

// The GPU-to-GPU fabric class, the per-GPU bandwidth it implies and a one-line headline.
// Never fails: what cannot be decided is InterconnectClass::unknown with the reason.
core::InterconnectSummary classify_interconnect(const core::Machine& machine, const core::Catalog& catalog);

// Runs every rule family over the machine. Findings come in a fixed order (interconnect,
// inventory, memory, card class, NUMA, links, health); a rule that cannot decide is silent.
// assessment.unverified: the expectations the picture cannot decide, the GPUs the input names or
// counts without showing them (gpus_not_seen), and machine.not_read.
core::Assessment judge_machine(const core::Machine& machine, const core::Catalog& catalog,
                               const Expectations& expect);

// After judge_machine, when it found the interconnect unknown: the peer copies of nvbandwidth /
// p2pBandwidthLatencyTest logs as evidence (peer_link_evidence.hpp). Pairs measured above what any
// PCIe link carries are NVLink; when a GPU's peers took more in all than any GPU's NVLinks carry
// and every GPU of `machine` is on NVLink, the class is nvswitch_full_mesh, inferred "from measured
// peer bandwidth" (the interconnect_class finding is rewritten); otherwise the unknown class's
// reasoning names the NVLink pairs. Low numbers prove nothing (a degraded NVLink is slow too).
void infer_interconnect_from_peer_bandwidth(const std::vector<core::BandwidthRun>& runs, const core::Machine& machine,
                                            const core::Catalog& catalog, core::Assessment& assessment);

// Adds a CollectiveSummary per run to `assessment.collectives`, judged against the envelope of
// `machine` (or, when the machine is not described, of what the log's device list implies), and
// the findings busbw_below_expected, collective_wrong_results and collective_not_judged.
void judge_collectives(const std::vector<core::CollectiveRun>& runs, const core::Machine& machine,
                       const core::Catalog& catalog, core::Assessment& assessment);

// Multi-node nccl-tests logs (run.nodes > 1; others are skipped): judged like gpuvet nccl's
// cross-node path, against the NICs of a node (expect.nic_count x nic_gbit_s, else the rated
// NICs of `machine`) x 0.92, at most one NIC per GPU, and the node's own envelope when known;
// busbw_below_expected names the likely causes. Without NIC information a busbw below what one
// 100 Gb/s link carries is still a warning; otherwise collective_not_judged says what to give.
void judge_multi_node_collectives(const std::vector<core::CollectiveRun>& runs, const core::Machine& machine,
                                  const Expectations& expect, const core::Catalog& catalog, core::Assessment& assessment);

// What benchmark logs left unjudged makes the verdict incomplete (assessment.unverified): a run
// with no result (no rows, no matrix) and no failure; a copy-bandwidth run cut short
// (BandwidthRun::cut: the testcases after the cut are not in it); and, when no machine
// description was given (`machine_described` false), logs none of whose results could be
// compared with an envelope.
// A failed run is benchmark_failed (judge_collectives / judge_bandwidth), not incomplete.
void judge_benchmark_coverage(const std::vector<core::CollectiveRun>& collectives,
                              const std::vector<core::BandwidthRun>& bandwidth, bool machine_described,
                              core::Assessment& assessment);

// When a machine description (no benchmark log) judged nothing about the machine: no interconnect
// class, link matrix, attached count, kernel events, NICs, and no GPU fact a rule judges (memory,
// ECC, health, PCIe, NUMA, link speeds, a link down, links up on two GPUs or more). Only models,
// NVLink traffic of one GPU, firmware versions or the error counters of some links: the verdict
// is incomplete, saying what the input showed and what it did not (assessment.unverified).
void judge_machine_coverage(const core::Machine& machine, core::Assessment& assessment);

// Adds a BandwidthSummary per matrix to `assessment.bandwidth`: unidirectional CE host<->device
// copies per GPU and peer copies per GPU pair are judged against the envelope of `machine` (or
// of the log's device list), with bandwidth_below_expected; pairs without P2P give p2p_unavailable.
void judge_bandwidth(const std::vector<core::BandwidthRun>& runs, const core::Machine& machine,
                     const core::Catalog& catalog, core::Assessment& assessment);

// Judges a VRAM check: vram_errors for miscompares, vram_short when clearly less memory could be
// allocated than the GPU reports; a GPU whose check stopped early is unverified (incomplete).
void judge_vram(const core::VramRun& run, core::Assessment& assessment);

}  // namespace gpuvet::analysis
