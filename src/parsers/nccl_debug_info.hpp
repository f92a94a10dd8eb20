// What NCCL_DEBUG=INFO lines in an nccl-tests log say about the machine: the GPUs behind the
// "host:pid:tid [dev]" prefixes (and "cudaDev N ... busId X" init lines), the communicator size
// ("nRanks 24 nNodes 3"), and the paths NCCL found between GPUs (NVLS, "NVL[..] - NVS/", "type NVL/..").
// Fed line by line by the nccl-tests parser.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "core/collective.hpp"

namespace gpuvet::parsers {

struct NcclDebugFacts {
  std::map<std::pair<std::string, int>, std::string> devices;  // (host, CUDA device) -> bus id ("" unknown)
  std::optional<int> ranks;                                    // "nRanks 24"
  std::optional<int> nodes;                                    // "nNodes 3"
  std::string nvswitch_line;  // "line 12: NVLS multicast support is available on dev 0": NVSwitch behind the GPUs
  std::string nvlink_line;    // "line 40: Pattern 4, ... type NVL/PIX": NVLink between the node's GPUs
  std::string pcie_line;      // "line 40: Pattern 4, ... type PIX/PIX": the GPUs' ring runs over PCIe
};

// Reads one NCCL INFO/WARN line (`t` trimmed, `line` its number); ignores anything else.
void read_nccl_debug_line(std::string_view t, int line, NcclDebugFacts& facts);

// Copies what the facts show into the run: the devices seen (when no Rank line listed any), the
// rank and node counts (when unknown), the path evidence.
void apply_nccl_debug_facts(const NcclDebugFacts& facts, core::CollectiveRun& run);

}  // namespace gpuvet::parsers
