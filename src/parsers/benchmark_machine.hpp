// The GPU list a benchmark log gives when no machine description was pasted: nccl-tests Rank
// lines, nvbandwidth "Device N:" lines, p2pBandwidthLatencyTest "Device: N, ..." lines (name,
// bus id, host). Called by analyze; the judge then knows the models (--workload, catalogue).
#pragma once

#include <vector>

#include "core/bandwidth.hpp"
#include "core/collective.hpp"
#include "core/machine.hpp"

namespace gpuvet::parsers {

// The machine of the log that lists the most GPUs: one Gpu per rank (index = rank; a multi-node
// run lists every node's GPUs, with a note naming the hosts) or per CUDA device; hostname when one
// host. Without device lines, an nvbandwidth / p2p matrix of GPU labels gives GPUs with unknown
// names. Without Rank lines, the (host, device) pairs of NCCL INFO prefixes give GPUs of unknown
// model. Absent names stay absent. Returns a machine with no GPUs when no log lists any.
// NCCL's own path lines set nvswitch_present (NVLS, "NVL[..] - NVS/") or add a note (NVLink or
// PCIe rings); nccl-tests logs without them get a note that the interconnect is not read from them.
core::Machine machine_from_benchmarks(const std::vector<core::CollectiveRun>& collectives,
                                      const std::vector<core::BandwidthRun>& bandwidth);

}  // namespace gpuvet::parsers
