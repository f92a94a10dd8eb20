// Hand-built scaling observations (see test_attribution.hpp).
#include "test_attribution.hpp"

#include <algorithm>

#include "analysis/scaling_nodes.hpp"

namespace gpuvet::analysis::testing {

core::Machine uniform_machine(int n, core::Link link) {
  core::Machine m;
  m.source = "test";
  for (int i = 0; i < n; ++i) {
    core::Gpu g;
    g.index = i;
    m.gpus.push_back(g);
  }
  core::LinkMatrix links(n);
  for (int a = 0; a < n; ++a)
    for (int b = a + 1; b < n; ++b) links.set_symmetric(a, b, link);
  m.links = links;
  return m;
}

namespace {
SubsetBusbw set_busbw(const std::vector<int>& gpus, double base, const std::vector<std::pair<int, double>>& stragglers,
                      std::pair<int, int> slow_pair, double link_factor) {
  double f = 1;
  for (const auto& [g, factor] : stragglers) {
    if (std::find(gpus.begin(), gpus.end(), g) != gpus.end()) f = std::min(f, factor);
  }
  const bool has_a = std::find(gpus.begin(), gpus.end(), slow_pair.first) != gpus.end();
  const bool has_b = std::find(gpus.begin(), gpus.end(), slow_pair.second) != gpus.end();
  if (has_a && has_b) f *= link_factor;
  return {gpus, base * f};
}
}  // namespace

ScalingObservation planted_observation(int n, double base, const std::vector<std::pair<int, double>>& stragglers,
                                       std::pair<int, int> slow_pair, double link_factor) {
  ScalingObservation obs;
  obs.op = "all_reduce";
  obs.size_bytes = 1ull << 30;
  for (int a = 0; a < n; ++a)
    for (int b = a + 1; b < n; ++b) obs.pairs.push_back(set_busbw({a, b}, base, stragglers, slow_pair, link_factor));
  if (n > 4) {
    for (int a = 0; a < n; ++a)
      for (int b = a + 1; b < n; ++b)
        for (int c = b + 1; c < n; ++c)
          for (int d = c + 1; d < n; ++d) obs.subsets.push_back(set_busbw({a, b, c, d}, base, stragglers, slow_pair, link_factor));
  }
  std::vector<int> all(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) all[static_cast<std::size_t>(i)] = i;
  obs.all = set_busbw(all, base, stragglers, slow_pair, link_factor);
  return obs;
}

std::vector<core::Finding> attribution_gallery_findings() {
  const auto machine = uniform_machine(8, {core::LinkKind::nvlink, 18});
  auto out = attribute_scaling(planted_observation(8, 360, {{3, 0.5}}), machine);
  for (auto& f : attribute_scaling(planted_observation(8, 360, {}, {2, 5}, 0.5), machine)) out.push_back(std::move(f));
  for (auto& f : judge_hangs({{"all_reduce", {0, 1}, 1 << 20, {1}, "no NCCL error reported", 60}})) out.push_back(std::move(f));
  const NodeInventory h100{"node-a", {"NVIDIA H100 80GB HBM3"}, {"96.00.89.00.01"}, "565.57.01", "12.7"};
  NodeInventory a100 = h100;
  a100.host = "node-c";
  a100.gpu_names = {"NVIDIA A100-SXM4-80GB"};
  for (auto& f : judge_nodes({h100, h100, a100})) out.push_back(std::move(f));
  return out;
}

}  // namespace gpuvet::analysis::testing
