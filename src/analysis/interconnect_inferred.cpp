// Classifies the interconnect without a topo -m matrix, from what nvidia-smi -q and nvlink -s
// say: NVLink-less models, NVSwitch fabric state, port states, and the HGX 4- and 8-GPU boards
// (per node when the input spans several).
#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "analysis/interconnect_view.hpp"
#include "analysis/nvswitch_board.hpp"

namespace gpuvet::analysis {

using core::InterconnectClass;
using core::Reading;

core::InterconnectSummary classify_without_matrix(const View& v) {
  const core::Machine& m = v.machine;
  bool all_known = true;
  bool none_has_nvlink = true;
  for (int p = 0; p < v.n; ++p) {
    if (v.model(p) == nullptr) all_known = false;
    else if (v.model(p)->nvlink_generation > 0 && v.model(p)->nvlink_links > 0) none_has_nvlink = false;
  }
  if (all_known && none_has_nvlink) {
    return pcie_summary(v, "no topo -m matrix, but no GPU model here has NVLink (catalogue)");
  }
  const bool all_fabric_completed = std::all_of(m.gpus.begin(), m.gpus.end(), [](const core::Gpu& g) {
    return g.fabric_state && contains_nocase(*g.fabric_state, "completed");
  });
  std::string why_switch = switch_evidence(v);
  if (why_switch.empty() && all_fabric_completed) {
    why_switch = "the NVSwitch fabric manager reports state Completed on every GPU";
  }
  if (!why_switch.empty()) {
    core::InterconnectSummary s;
    s.cls = InterconnectClass::nvswitch_full_mesh;
    s.reasoning = fmt::format("no topo -m matrix, but {} (only NVSwitch systems run a fabric)", why_switch);
    Reading<double> bw = Reading<double>::absent("no GPU");
    for (int p = 0; p < v.n; ++p) {
      const Reading<double> gpu_bw = v.model(p) != nullptr ? v.model(p)->nvlink_gbps_per_gpu()
                                                           : Reading<double>::absent("GPU model not in the catalogue");
      bw = p == 0 ? gpu_bw : min_reading(bw, gpu_bw);
    }
    s.gpu_bandwidth_gbps = bw;
    s.headline = fmt::format("{}, NVSwitch full mesh: {}", inventory_label(v), bandwidth_text(bw, "per GPU per direction"));
    return s;
  }
  // Every GPU lists its NVLink ports and none is up: nothing but PCIe joins them.
  const bool ports_all_down = std::all_of(m.gpus.begin(), m.gpus.end(), [](const core::Gpu& g) {
    return g.nvlinks && std::all_of(g.nvlinks->begin(), g.nvlinks->end(), [](const core::NvLinkPort& port) {
             return port.active && !*port.active;
           });
  });
  if (ports_all_down) return pcie_summary(v, "no topo -m matrix, and no NVLink port is active on any GPU");
  // Every GPU lists its ports, and some have NVLink up while others have none: not a mesh.
  const bool ports_known = std::all_of(m.gpus.begin(), m.gpus.end(), [](const core::Gpu& g) { return g.nvlinks.known(); });
  if (ports_known) {
    std::vector<int> with;
    std::vector<int> without;
    for (const auto& g : m.gpus) {
      const bool any = std::any_of(g.nvlinks->begin(), g.nvlinks->end(),
                                   [](const core::NvLinkPort& port) { return known_true(port.active); });
      (any ? with : without).push_back(g.index);
    }
    if (!with.empty() && !without.empty()) {
      core::InterconnectSummary s;
      s.cls = InterconnectClass::nvlink_partial;
      s.reasoning = fmt::format("no topo -m matrix, but {} {} no active NVLink port while {} {}", describe_gpus(without),
                                without.size() == 1 ? "has" : "have", describe_gpus(with),
                                with.size() == 1 ? "does" : "do");
      Reading<double> bw = Reading<double>::absent("no GPU");
      for (int p = 0; p < v.n; ++p) bw = p == 0 ? pcie_rate(v, p) : min_reading(bw, pcie_rate(v, p));
      s.gpu_bandwidth_gbps = bw;
      s.headline = fmt::format("{}: NVLink on {} only, the rest over PCIe ({})", inventory_label(v), compact_gpus(with),
                               bw ? fmt::format("{} GB/s", format_gbps(*bw)) : "bandwidth unknown: " + bw.reason());
      return s;
    }
  }

  const core::GpuModel* first = v.model(0);
  const bool hgx4 = v.n == 4 && m.attached_gpus.value_or(4) == 4 && first != nullptr && first->form_factor == "sxm" &&
                    first->nvlink_links > 0 && (first->architecture == "Ampere" || first->architecture == "Hopper") &&
                    std::all_of(v.models.begin(), v.models.end(), [&](const core::GpuModel* mdl) { return mdl == first; }) &&
                    std::none_of(m.gpus.begin(), m.gpus.end(), fabric_state_reported);
  if (hgx4) {
    core::InterconnectSummary s;
    s.cls = InterconnectClass::nvlink_direct_full_mesh;
    s.inferred = true;
    s.reasoning = fmt::format(
        "inferred, not observed: 4 {} GPUs with no NVSwitch fabric state; HGX 4-GPU boards join them in a direct "
        "NVLink mesh (give nvidia-smi topo -m to confirm)",
        first->display_name);
    const int per_pair = first->nvlink_links / 3;
    s.gpu_bandwidth_gbps = first->nvlink_link_gbps ? Reading<double>(*first->nvlink_link_gbps * per_pair)
                                                   : Reading<double>::absent(first->nvlink_link_gbps.reason());
    s.headline = fmt::format("{}, NVLink direct full mesh (inferred): NV{} = {}", inventory_label(v), per_pair,
                             bandwidth_text(s.gpu_bandwidth_gbps, "per GPU pair per direction"));
    return s;
  }
  // Eight SXM modules of one Ampere/Hopper/Blackwell model on one board (nvswitch_board.hpp).
  std::vector<NodeGpu> all;
  for (int p = 0; p < v.n; ++p) all.push_back(NodeGpu{v.index(p), v.model(p), true});
  const bool hgx8 = v.n == 8 && m.attached_gpus.value_or(8) == 8 && nvswitch_board_model(all, 0) != nullptr &&
                    std::none_of(m.gpus.begin(), m.gpus.end(), fabric_state_reported);
  if (hgx8) {
    core::InterconnectSummary s;
    s.cls = InterconnectClass::nvswitch_full_mesh;
    s.inferred = true;
    s.reasoning = fmt::format(
        "inferred, not observed: 8 {} modules with no NVSwitch fabric state in the input; 8-GPU HGX/DGX boards of "
        "this generation join them through NVSwitches (give nvidia-smi topo -m or nvlink -s to confirm)",
        first->display_name);
    s.gpu_bandwidth_gbps = first->nvlink_gbps_per_gpu();
    s.headline = fmt::format("{}, NVSwitch full mesh (inferred): {}", inventory_label(v),
                             bandwidth_text(s.gpu_bandwidth_gbps, "per GPU per direction"));
    return s;
  }
  // A multi-node input (Rank lines naming their hosts): the same board rule, node by node.
  if (auto per_node = classify_nodes_without_matrix(v)) return *per_node;
  std::vector<std::string> missing{"no topo -m link matrix"};
  std::vector<int> uncatalogued;
  for (int p = 0; p < v.n; ++p) {
    if (v.model(p) == nullptr) uncatalogued.push_back(v.index(p));
  }
  if (!uncatalogued.empty()) missing.push_back(describe_gpus(uncatalogued) + " not in the GPU catalogue");
  if (std::none_of(m.gpus.begin(), m.gpus.end(), fabric_state_reported)) missing.emplace_back("no NVSwitch fabric state");
  else if (!all_fabric_completed) missing.emplace_back("fabric state not Completed on every GPU");
  return unknown_summary(v, fmt::format("{}", fmt::join(missing, "; ")));
}

}  // namespace gpuvet::analysis
