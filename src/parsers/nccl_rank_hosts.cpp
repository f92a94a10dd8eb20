// GPUs per host from nccl-tests Rank lines (see nccl_rank_hosts.hpp).
#include "parsers/nccl_rank_hosts.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <map>
#include <set>

namespace gpuvet::parsers {

RankHosts rank_hosts(const core::CollectiveRun& run) {
  RankHosts out;
  struct Seen {
    std::set<int> devices;
    int unknown_devices = 0;
  };
  std::map<std::string, Seen> seen;
  std::set<int> ranks;
  bool every_line_names_a_host = true;
  for (const auto& r : run.rank_devices) {
    ranks.insert(r.rank);
    if (r.host.empty()) {
      every_line_names_a_host = false;
      continue;
    }
    auto it = std::find_if(out.hosts.begin(), out.hosts.end(), [&](const HostGpus& h) { return h.host == r.host; });
    if (it == out.hosts.end()) {
      out.hosts.push_back(HostGpus{r.host, 0, 0, r.rank, r.rank});
      it = out.hosts.end() - 1;
    }
    ++it->ranks;
    it->first_rank = std::min(it->first_rank, r.rank);
    it->last_rank = std::max(it->last_rank, r.rank);
    auto& s = seen[r.host];
    if (r.device >= 0) s.devices.insert(r.device);
    else ++s.unknown_devices;
  }
  for (auto& h : out.hosts) h.gpus = static_cast<int>(seen[h.host].devices.size()) + seen[h.host].unknown_devices;
  std::sort(out.hosts.begin(), out.hosts.end(), [](const HostGpus& a, const HostGpus& b) { return a.first_rank < b.first_rank; });
  const bool contiguous = !ranks.empty() && *ranks.begin() == 0 && *ranks.rbegin() + 1 == static_cast<int>(ranks.size());
  const bool all_ranks = contiguous && (!run.ranks.known() || static_cast<int>(ranks.size()) >= *run.ranks);
  out.complete = !out.hosts.empty() && every_line_names_a_host && all_ranks;
  return out;
}

std::optional<int> gpus_per_host(const RankHosts& hosts) {
  if (!hosts.complete || hosts.hosts.size() < 2) return std::nullopt;
  const int n = hosts.hosts.front().gpus;
  for (const auto& h : hosts.hosts) {
    if (h.gpus != n) return std::nullopt;
  }
  return n;
}

std::string describe_rank_hosts(const RankHosts& hosts) {
  std::string out;
  for (const auto& h : hosts.hosts) {
    if (!out.empty()) out += ", ";
    const bool block = h.last_rank - h.first_rank + 1 == h.ranks;
    const std::string ranks = h.ranks == 1 ? fmt::format("rank {}", h.first_rank)
                              : block      ? fmt::format("ranks {}-{}", h.first_rank, h.last_rank)
                                           : fmt::format("{} ranks between {} and {}", h.ranks, h.first_rank, h.last_rank);
    out += fmt::format("{}: {}{} GPU{} ({})", h.host, hosts.complete ? "" : "at least ", h.gpus, h.gpus == 1 ? "" : "s", ranks);
  }
  return out;
}

}  // namespace gpuvet::parsers
