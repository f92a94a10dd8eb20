// The traffic tally: intervals' rates, wrong elements and cross-check digests, and counter growth
// split by whether traffic ran.
#include "analysis/traffic_tally.hpp"

#include <algorithm>

namespace gpuvet::analysis::burnin {

void SplitGrowth::observe(std::uint64_t value, double t_s, bool traffic) {
  if (last && value > *last) {
    const std::uint64_t grown = value - *last;
    if (traffic) {
      if (under_traffic == 0) first_under_traffic_s = t_s;
      under_traffic += grown;
    } else {
      idle += grown;
    }
  }
  last = value;  // a counter reset (lower value) starts again from there
}

void TrafficTally::on_interval(const core::TrafficInterval& interval, const std::map<int, std::string>& names) {
  windows.emplace_back(interval.from_s, interval.t_s);
  for (const auto& c : interval.collectives) {
    if (c.busbw_gbps.known()) {
      busbw[c.op].emplace_back(interval.t_s, *c.busbw_gbps);
      any_busbw = true;
    } else if (collectives_absent.empty()) {
      collectives_absent = c.busbw_gbps.reason();
    }
    if (c.wrong.known() && *c.wrong > 0) {
      if (!op_wrong.count(c.op)) op_first_wrong_s[c.op] = interval.t_s;
      op_wrong[c.op] += *c.wrong;
    }
  }
  // Cross-check digests: per model, the digest most GPUs returned; the others differ.
  std::map<std::string, std::map<std::uint64_t, std::vector<int>>> by_model;
  std::size_t known_digests = 0;
  for (const auto& g : interval.gpus) {
    GpuRates r;
    if (g.send_gbps.known()) r.send = *g.send_gbps;
    if (g.recv_gbps.known()) r.recv = *g.recv_gbps;
    if (g.h2d_gbps.known()) r.h2d = *g.h2d_gbps;
    if (g.d2h_gbps.known()) r.d2h = *g.d2h_gbps;
    any_copy = any_copy || r.h2d || r.d2h;
    rates[g.gpu].emplace_back(interval.t_s, r);
    if (g.wrong.known() && *g.wrong > 0) {
      if (!gpu_wrong.count(g.gpu)) gpu_first_wrong_s[g.gpu] = interval.t_s;
      gpu_wrong[g.gpu] += *g.wrong;
    }
    if (g.gemm_digest.known()) {
      const auto name = names.find(g.gpu);
      by_model[name == names.end() ? std::string() : name->second][*g.gemm_digest].push_back(g.gpu);
      ++known_digests;
    } else if (digest_absent.empty()) {
      digest_absent = g.gemm_digest.reason();
    }
  }
  if (known_digests >= 2) ++digests_compared;
  for (const auto& [model, digests] : by_model) {
    if (digests.size() < 2) continue;
    std::size_t most = 0;
    for (const auto& [digest, gpus] : digests) most = std::max(most, gpus.size());
    const bool tie = std::count_if(digests.begin(), digests.end(), [&](const auto& d) { return d.second.size() == most; }) > 1;
    for (const auto& [digest, gpus] : digests) {
      if (gpus.size() == most && !tie) continue;  // the majority; on a tie every GPU is named
      for (int gpu : gpus) {
        if (!digest_mismatches.count(gpu)) first_mismatch_s[gpu] = interval.t_s;
        ++digest_mismatches[gpu];
      }
    }
  }
}

bool TrafficTally::under_traffic(double t_s) {
  while (cursor < windows.size() && windows[cursor].second < t_s) ++cursor;
  return cursor < windows.size() && t_s > windows[cursor].first;
}

void TrafficTally::on_sample(const core::TelemetrySample& s) {
  const bool traffic = under_traffic(s.t_s);
  if (s.nvlink.known()) {
    auto& count = nvlink_links[s.gpu];
    count = std::max(count, s.nvlink->size());
    for (const auto& link : *s.nvlink) {
      LinkCounters& c = links[{s.gpu, link.link}];
      const std::uint64_t crc = link.crc_flit.value_or(0) + link.crc_data.value_or(0);
      if (link.crc_flit.known() || link.crc_data.known()) c.crc.observe(crc, s.t_s, traffic);
      if (link.replay.known()) c.replay.observe(*link.replay, s.t_s, traffic);
      if (link.recovery.known()) c.recovery.observe(*link.recovery, s.t_s, traffic);
    }
  }
  if (s.pcie_replays.known()) pcie[s.gpu].observe(*s.pcie_replays, s.t_s, traffic);
}

double TrafficTally::traffic_s() const {
  double total = 0;
  for (const auto& [from, to] : windows) total += std::max(0.0, to - from);
  return total;
}

}  // namespace gpuvet::analysis::burnin
