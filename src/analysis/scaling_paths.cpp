// Path classes of GPU sets: the slowest link among a set's pairs, from the machine's link matrix.
#include "analysis/scaling_paths.hpp"

#include <tuple>

namespace gpuvet::analysis {
namespace {

// (tier, -links): NVLink first (more bonded links better), then PCIe from the closest hop out.
std::tuple<int, int> order(const core::Link& link) {
  switch (link.kind) {
    case core::LinkKind::self: return {-1, 0};
    case core::LinkKind::nvlink: return {0, -link.nvlink_count};
    case core::LinkKind::pix: return {1, 0};
    case core::LinkKind::pxb: return {2, 0};
    case core::LinkKind::phb: return {3, 0};
    case core::LinkKind::node: return {4, 0};
    case core::LinkKind::sys: return {5, 0};
  }
  return {5, 0};
}

}  // namespace

bool slower_path(const core::Link& a, const core::Link& b) { return order(a) > order(b); }

std::optional<core::Link> worst_path(const core::Machine& machine, const std::vector<int>& gpus) {
  if (!machine.links) return std::nullopt;
  const core::LinkMatrix& links = *machine.links;
  std::optional<core::Link> worst;
  for (std::size_t i = 0; i < gpus.size(); ++i) {
    for (std::size_t j = i + 1; j < gpus.size(); ++j) {
      const int a = core::position_of_gpu(machine, gpus[i]);
      const int b = core::position_of_gpu(machine, gpus[j]);
      if (a < 0 || b < 0 || a >= links.size() || b >= links.size()) return std::nullopt;
      const core::Link& link = links.at(a, b);
      if (!worst || slower_path(link, *worst)) worst = link;
    }
  }
  return worst;
}

std::string path_key(const std::optional<core::Link>& link) { return link ? core::to_string(*link) : "unknown path"; }

}  // namespace gpuvet::analysis
