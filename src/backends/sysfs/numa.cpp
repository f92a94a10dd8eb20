// Reads NUMA nodes from sysfs; see numa.hpp.
#include "backends/sysfs/numa.hpp"

#include <algorithm>
#include <charconv>
#include <optional>
#include <string>

#include "backends/sysfs/sysfs_values.hpp"

namespace gpuvet::sysfs {

namespace {

// "node12" -> 12; nullopt for "online", "possible", "nodeX", ...
std::optional<int> node_id(std::string_view name) {
  constexpr std::string_view kPrefix = "node";
  if (name.size() <= kPrefix.size() || name.substr(0, kPrefix.size()) != kPrefix) return std::nullopt;
  const auto digits = name.substr(kPrefix.size());
  int id = 0;
  const auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), id);
  if (ec != std::errc() || ptr != digits.data() + digits.size() || id < 0) return std::nullopt;
  return id;
}

}  // namespace

core::Reading<std::vector<core::NumaNode>> read_numa_nodes(const platform::FsRoot& root) {
  using Nodes = core::Reading<std::vector<core::NumaNode>>;
  if (!root.exists(kNumaNodeDir)) {
    return Nodes::absent(std::string(kNumaNodeDir) + " missing (kernel without NUMA support?)");
  }
  std::vector<core::NumaNode> nodes;
  for (const auto& name : root.list(kNumaNodeDir)) {
    const auto id = node_id(name);
    if (!id) continue;
    core::NumaNode node;
    node.id = *id;
    node.cpus = read_attribute<std::string>(root, std::string(kNumaNodeDir) + "/" + name, "cpulist",
                                            parse_cpulist);
    nodes.push_back(std::move(node));
  }
  if (nodes.empty()) return Nodes::absent(std::string(kNumaNodeDir) + " lists no node<N>");
  std::sort(nodes.begin(), nodes.end(),
            [](const core::NumaNode& a, const core::NumaNode& b) { return a.id < b.id; });
  return nodes;
}

}  // namespace gpuvet::sysfs
