// node_inventory_mismatch: each attribute compared with the value most nodes share; the odd
// nodes are named with their value and the usual one.
#include "analysis/scaling_nodes.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "analysis/finding_codes.hpp"
#include "analysis/rule_support.hpp"

namespace gpuvet::analysis {
namespace {

std::string joined(const std::vector<std::string>& v) {
  std::string out;
  for (const auto& s : v) out += (out.empty() ? "" : ", ") + (s.empty() ? std::string("?") : s);
  return out;
}

// "8x NVIDIA H100 80GB HBM3" or "4x A, 4x B": each value with its count, in order of first use.
std::string counted(const std::vector<std::string>& v) {
  std::vector<std::pair<std::string, int>> groups;
  for (const auto& s : v) {
    const std::string name = s.empty() ? "?" : s;
    auto it = std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.first == name; });
    if (it == groups.end()) groups.emplace_back(name, 1);
    else ++it->second;
  }
  std::string out;
  for (const auto& [name, n] : groups) out += fmt::format("{}{}x {}", out.empty() ? "" : ", ", n, name);
  return out;
}

// The distinct known values, in order of first use ("" when none is known).
std::string distinct(const std::vector<std::string>& v) {
  std::vector<std::string> seen;
  for (const auto& s : v) {
    if (!s.empty() && std::find(seen.begin(), seen.end(), s) == seen.end()) seen.push_back(s);
  }
  return joined(seen);
}

// Most nodes' value of `key` (first seen wins a tie); empty values are not counted.
template <class Key>
std::string usual(const std::vector<NodeInventory>& nodes, Key key) {
  std::map<std::string, int> counts;
  std::string best;
  int best_count = 0;
  for (const auto& n : nodes) {
    const std::string v = key(n);
    if (v.empty()) continue;
    if (++counts[v] > best_count) {
      best_count = counts[v];
      best = v;
    }
  }
  return best;
}

}  // namespace

std::vector<core::Finding> judge_nodes(const std::vector<NodeInventory>& nodes) {
  std::vector<core::Finding> out;
  if (nodes.size() < 2) return out;
  struct Attribute {
    const char* what;
    core::Severity severity;
    std::string (*key)(const NodeInventory&);
  };
  const Attribute attributes[] = {
      {"GPUs", core::Severity::fail, [](const NodeInventory& n) { return counted(n.gpu_names); }},
      {"driver", core::Severity::warn, [](const NodeInventory& n) { return n.driver_version; }},
      {"CUDA version", core::Severity::warn, [](const NodeInventory& n) { return n.cuda_version; }},
      {"VBIOS", core::Severity::warn, [](const NodeInventory& n) { return distinct(n.vbios); }},
  };
  for (const auto& a : attributes) {
    const std::string common = usual(nodes, a.key);
    std::vector<std::string> odd;
    std::vector<std::pair<std::string, std::string>> evidence;
    for (const auto& n : nodes) {
      const std::string v = a.key(n);
      if (v.empty() || v == common) continue;
      odd.push_back(n.host);
      evidence.emplace_back(n.host, v);
    }
    if (odd.empty()) continue;
    evidence.emplace_back("most nodes", common);
    auto f = make_finding(code::node_inventory_mismatch, a.severity, {},
                          fmt::format("{} of {} nodes differ in {}: {}", odd.size(), nodes.size(), a.what, joined(odd)));
    f.evidence = std::move(evidence);
    out.push_back(std::move(f));
  }
  return out;
}

}  // namespace gpuvet::analysis
