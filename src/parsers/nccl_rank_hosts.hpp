// GPUs per host of a multi-node nccl-tests run, from its "Rank N ... on HOST device D [bus] NAME"
// lines: a 2x8 run is 16 ranks on 2 hosts, 8 GPUs each. Used by benchmark_machine.cpp.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/collective.hpp"

namespace gpuvet::parsers {

struct HostGpus {
  std::string host;
  int gpus = 0;        // distinct CUDA devices; a rank whose line lost its device counts as one
  int ranks = 0;
  int first_rank = 0;  // lowest and highest rank on the host, as the lines show them
  int last_rank = 0;
};

struct RankHosts {
  std::vector<HostGpus> hosts;  // in order of first rank; empty when no Rank line names a host
  // Every rank 0..N-1 has its line and each names a host: the counts are the run's, not lower
  // bounds of a paste that shows only some Rank lines.
  bool complete = false;
};

RankHosts rank_hosts(const core::CollectiveRun& run);

// The GPU count every host has, when the lines are complete and all hosts have the same;
// nullopt otherwise (one host, a partial paste, or uneven hosts).
std::optional<int> gpus_per_host(const RankHosts& hosts);

// "gpu47: 8 GPUs (ranks 0-7), gpu48: 8 GPUs (ranks 8-15)"; "at least" before each count when
// the lines are not complete.
std::string describe_rank_hosts(const RankHosts& hosts);

}  // namespace gpuvet::parsers
