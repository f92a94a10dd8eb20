// NUMA placement: GPUs and NICs spread unevenly over the sockets, and GPUs whose reported NUMA
// node contradicts their PCIe neighbours or their CPU affinity.
#include <algorithm>
#include <set>
#include <map>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "analysis/finding_codes.hpp"
#include "analysis/rules.hpp"

namespace gpuvet::analysis {
namespace {

// Every GPU pair SYS while the GPUs share one NUMA node: the hypervisor flattened the topology.
bool pcie_tree_hidden(const core::Machine& m) {
  if (!m.links || m.links->size() < 2) return false;
  std::set<int> nodes;
  for (const auto& g : m.gpus) {
    if (!g.numa_node) return false;
    nodes.insert(*g.numa_node);
  }
  if (nodes.size() != 1) return false;
  const auto& l = *m.links;
  for (int a = 0; a < l.size(); ++a) {
    for (int b = a + 1; b < l.size(); ++b) {
      if (l.at(a, b).kind != core::LinkKind::sys) return false;
    }
  }
  return true;
}

using core::LinkKind;
using core::Severity;

// Node of a GPU or NIC; sources print -1 for "not available", which is not a node.
std::optional<int> node_of(const core::Reading<int>& r) {
  if (r && *r >= 0) return *r;
  return std::nullopt;
}

bool behind_same_switch(const core::Link& l) { return l.kind == LinkKind::pix || l.kind == LinkKind::pxb; }

std::string nic_label(const core::Nic& nic) {
  if (nic.name && *nic.name != nic.label) return fmt::format("{} ({})", nic.label, *nic.name);
  return nic.label;
}

// GPU position -> node, only when every GPU's node is known.
std::optional<std::vector<int>> all_gpu_nodes(const core::Machine& m) {
  std::vector<int> out;
  for (const auto& g : m.gpus) {
    auto n = node_of(g.numa_node);
    if (!n) return std::nullopt;
    out.push_back(*n);
  }
  if (out.empty()) return std::nullopt;
  return out;
}

std::vector<core::Finding> check_imbalance(const RuleContext& ctx) {
  std::vector<core::Finding> out;
  const core::Machine& m = ctx.machine;
  const auto nodes = all_gpu_nodes(m);
  if (nodes) {
    std::map<int, std::vector<int>> gpus_on;  // node -> GPU indices (nodes with CPUs start empty)
    if (m.numa_nodes) {
      for (const auto& n : *m.numa_nodes) {
        if (n.cpus && parse_cpulist(*n.cpus)) gpus_on[n.id];
      }
    }
    for (size_t p = 0; p < m.gpus.size(); ++p) gpus_on[(*nodes)[p]].push_back(m.gpus[p].index);
    size_t lo = m.gpus.size();
    size_t hi = 0;
    for (const auto& [node, members] : gpus_on) {
      lo = std::min(lo, members.size());
      hi = std::max(hi, members.size());
    }
    // An odd count cannot split evenly, so a difference of one GPU is not an imbalance.
    if (gpus_on.size() >= 2 && hi - lo > 1) {
      std::vector<std::string> split;
      std::vector<int> crowded;
      for (const auto& [node, members] : gpus_on) {
        split.push_back(std::to_string(members.size()));
        if (members.size() == hi) crowded.insert(crowded.end(), members.begin(), members.end());
      }
      auto f = make_finding(code::numa_imbalance, Severity::warn, crowded,
                            fmt::format("GPUs are spread {} over {} NUMA nodes: ranks on the crowded node share "
                                        "its memory and PCIe bandwidth",
                                        fmt::join(split, "+"), gpus_on.size()));
      for (const auto& [node, members] : gpus_on) {
        f.evidence.emplace_back(fmt::format("numa node {}", node),
                                members.empty() ? std::string("no GPUs") : describe_gpus(members));
      }
      out.push_back(std::move(f));
    }
  }
  if (!m.nics) return out;
  if (nodes) {
    for (const auto& nic : *m.nics) {
      const auto n = node_of(nic.numa_node);
      if (!n || std::find(nodes->begin(), nodes->end(), *n) != nodes->end()) continue;
      auto f = make_finding(code::numa_imbalance, Severity::warn, {},
                            fmt::format("NIC {} sits on NUMA node {}, where there is no GPU: GPUDirect RDMA through "
                                        "it crosses sockets",
                                        nic_label(nic), *n));
      f.evidence = {{"nic", nic_label(nic)}, {"nic numa node", std::to_string(*n)}};
      out.push_back(std::move(f));
    }
  }
  // A VM that hides the PCIe tree shows every path as SYS, even on one NUMA node (the 4x A10
  // fixture): SYS then says nothing about sockets.
  if (pcie_tree_hidden(m)) return out;
  std::vector<int> far;
  for (size_t p = 0; p < m.gpus.size(); ++p) {
    std::optional<LinkKind> nearest;
    for (const auto& nic : *m.nics) {
      if (!nic.gpu_proximity || nic.gpu_proximity->size() <= p) continue;
      const LinkKind k = (*nic.gpu_proximity)[p].kind;
      if (!nearest || static_cast<int>(k) < static_cast<int>(*nearest)) nearest = k;
    }
    if (nearest && *nearest == LinkKind::sys) far.push_back(m.gpus[p].index);
  }
  if (!far.empty()) {
    auto f = make_finding(code::numa_imbalance, Severity::warn, far,
                          fmt::format("{} reach{} the nearest NIC only across the inter-socket link (SYS)",
                                      describe_gpus(far), far.size() == 1 ? "es" : ""));
    f.evidence = {{"nearest nic path", "SYS"}};
    out.push_back(std::move(f));
  }
  return out;
}

std::vector<core::Finding> check_misplaced(const RuleContext& ctx) {
  std::vector<core::Finding> out;
  std::vector<std::pair<std::string, std::vector<int>>> affinity_groups;  // message tail -> GPUs
  std::vector<std::vector<std::pair<std::string, std::string>>> affinity_evidence;
  const core::Machine& m = ctx.machine;
  const int n = static_cast<int>(m.gpus.size());
  for (int p = 0; p < n; ++p) {
    const core::Gpu& gpu = m.gpus[static_cast<size_t>(p)];
    const auto node = node_of(gpu.numa_node);
    if (!node) continue;
    // PCIe-switch neighbours: flagged when most of them report another node.
    if (m.links && m.links->size() > p) {
      std::vector<int> same;
      std::map<int, std::vector<int>> other;  // node -> GPU indices
      for (int q = 0; q < std::min(n, m.links->size()); ++q) {
        if (q == p || !behind_same_switch(m.links->at(p, q))) continue;
        const auto qn = node_of(m.gpus[static_cast<size_t>(q)].numa_node);
        if (!qn) continue;
        if (*qn == *node) same.push_back(m.gpus[static_cast<size_t>(q)].index);
        else other[*qn].push_back(m.gpus[static_cast<size_t>(q)].index);
      }
      size_t others = 0;
      for (const auto& [on, members] : other) others += members.size();
      if (others > same.size()) {
        std::vector<std::string> parts;
        for (const auto& [on, members] : other) parts.push_back(fmt::format("{} on node {}", describe_gpus(members), on));
        auto f = make_finding(code::gpu_numa_misplaced, Severity::warn, {gpu.index},
                              fmt::format("GPU {} reports NUMA node {} but shares a PCIe switch with {}", gpu.index,
                                          *node, fmt::join(parts, ", ")));
        f.evidence.emplace_back(fmt::format("GPU {} numa node", gpu.index), std::to_string(*node));
        for (const auto& [on, members] : other) f.evidence.emplace_back(describe_gpus(members) + " numa node", std::to_string(on));
        out.push_back(std::move(f));
      }
    }
    if (m.nics) {
      // One finding per GPU, naming every NIC behind its switch that reports another node.
      std::vector<std::string> nics;
      std::vector<std::pair<std::string, std::string>> evidence{{fmt::format("GPU {} numa node", gpu.index),
                                                                 std::to_string(*node)}};
      for (const auto& nic : *m.nics) {
        const auto nn = node_of(nic.numa_node);
        if (!nn || *nn == *node || !nic.gpu_proximity || static_cast<int>(nic.gpu_proximity->size()) <= p) continue;
        const core::Link& l = (*nic.gpu_proximity)[static_cast<size_t>(p)];
        if (!behind_same_switch(l)) continue;
        nics.push_back(fmt::format("{} on node {} ({})", nic_label(nic), *nn, core::to_string(l)));
        evidence.emplace_back(fmt::format("{} numa node", nic_label(nic)), std::to_string(*nn));
      }
      if (!nics.empty()) {
        auto f = make_finding(code::gpu_numa_misplaced, Severity::warn, {gpu.index},
                              fmt::format("GPU {} reports NUMA node {} but shares a PCIe switch with {}", gpu.index,
                                          *node, fmt::join(nics, ", ")));
        f.evidence = std::move(evidence);
        out.push_back(std::move(f));
      }
    }
    // CPU affinity against the node's CPU list. An affinity covering every CPU means the driver
    // has no preference, which is not a contradiction.
    if (gpu.cpu_affinity && m.numa_nodes) {
      const auto affinity = parse_cpulist(*gpu.cpu_affinity);
      std::optional<std::set<int>> node_cpus;
      std::string node_cpus_text;
      std::set<int> all_cpus;
      for (const auto& nd : *m.numa_nodes) {
        if (!nd.cpus) continue;
        auto cpus = parse_cpulist(*nd.cpus);
        if (!cpus) continue;
        all_cpus.insert(cpus->begin(), cpus->end());
        if (nd.id == *node) {
          node_cpus = cpus;
          node_cpus_text = *nd.cpus;
        }
      }
      if (affinity && node_cpus && *affinity != *node_cpus && *affinity != all_cpus) {
        // GPUs of one node with the same wrong affinity share a finding.
        const std::string message_tail = fmt::format("report{{}} NUMA node {} but {{}} CPU affinity is {}, not node {}'s "
                                                     "CPUs {}",
                                                     *node, *gpu.cpu_affinity, *node, node_cpus_text);
        auto same = std::find_if(affinity_groups.begin(), affinity_groups.end(),
                                 [&](const auto& g) { return g.first == message_tail; });
        if (same == affinity_groups.end()) {
          affinity_groups.push_back({message_tail, {gpu.index}});
          affinity_evidence.push_back({{"cpu_affinity", *gpu.cpu_affinity},
                                       {fmt::format("numa node {} cpus", *node), node_cpus_text}});
        } else {
          same->second.push_back(gpu.index);
        }
      }
    }
  }
  for (size_t g = 0; g < affinity_groups.size(); ++g) {
    const auto& [tail, members] = affinity_groups[g];
    const bool one = members.size() == 1;
    auto f = make_finding(code::gpu_numa_misplaced, Severity::warn, members,
                          describe_gpus(members) + " " + fmt::format(fmt::runtime(tail), one ? "s" : "", one ? "its" : "their"));
    f.evidence = affinity_evidence[g];
    out.push_back(std::move(f));
  }
  return out;
}

}  // namespace

std::vector<core::Finding> check_numa(const RuleContext& ctx) {
  auto out = check_imbalance(ctx);
  auto misplaced = check_misplaced(ctx);
  out.insert(out.end(), std::make_move_iterator(misplaced.begin()), std::make_move_iterator(misplaced.end()));
  return out;
}

}  // namespace gpuvet::analysis
