// Decides the interconnect class of a machine from its topo -m matrix (NVSwitch mesh, direct
// NVLink mesh, partial NVLink, PCIe only), the per-GPU bandwidth it implies, and a headline.
#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "analysis/interconnect_view.hpp"
#include "analysis/rules.hpp"

namespace gpuvet::analysis {
namespace {

using core::InterconnectClass;
using core::Reading;

// The most NVLinks any shipping GPU has (H100/H200/B200 SXM); used when the model is unknown.
constexpr int kMaxNvLinksAnyGpu = 18;

// Connected components (size >= 2) of the NVLink graph, as GPU indices.
std::vector<std::vector<int>> nvlink_islands(const View& v, const core::LinkMatrix& links) {
  std::vector<int> comp(static_cast<size_t>(v.n), -1);
  std::vector<std::vector<int>> out;
  for (int s = 0; s < v.n; ++s) {
    if (comp[static_cast<size_t>(s)] >= 0) continue;
    std::vector<int> stack{s};
    std::vector<int> members;
    comp[static_cast<size_t>(s)] = s;
    while (!stack.empty()) {
      const int a = stack.back();
      stack.pop_back();
      members.push_back(v.index(a));
      for (int b = 0; b < v.n; ++b) {
        if (comp[static_cast<size_t>(b)] < 0 && links.at(a, b).is_nvlink()) {
          comp[static_cast<size_t>(b)] = s;
          stack.push_back(b);
        }
      }
    }
    if (members.size() >= 2) out.push_back(members);
  }
  return out;
}

}  // namespace

core::InterconnectSummary classify_from_matrix(const View& v, const core::LinkMatrix& links) {
  int nv_pairs = 0;
  int pairs = 0;
  for (int a = 0; a < v.n; ++a) {
    for (int b = a + 1; b < v.n; ++b) {
      ++pairs;
      if (links.at(a, b).is_nvlink()) ++nv_pairs;
    }
  }
  if (nv_pairs == 0) {
    return pcie_summary(v, fmt::format("the link matrix shows no NVLink between any of the {} GPU pairs", pairs));
  }
  core::InterconnectSummary s;
  if (nv_pairs < pairs) {
    s.cls = InterconnectClass::nvlink_partial;
    s.reasoning = fmt::format("the link matrix shows NVLink on {} of {} GPU pairs; the rest go over PCIe", nv_pairs, pairs);
    Reading<double> slowest = Reading<double>::absent("no GPU pair");
    bool first = true;
    for (int a = 0; a < v.n; ++a) {
      for (int b = a + 1; b < v.n; ++b) {
        const core::Link& l = links.at(a, b);
        Reading<double> r;
        if (l.is_nvlink()) {
          // NVLink bonds are never a pair's slowest path next to PCIe; skip unknown rates.
          const auto rate = min_reading(nvlink_link_rate(v, a), nvlink_link_rate(v, b));
          if (!rate) continue;
          r = *rate * l.nvlink_count;
        } else {
          r = min_reading(pcie_rate(v, a), pcie_rate(v, b));
        }
        slowest = first ? r : min_reading(slowest, r);
        first = false;
      }
    }
    s.gpu_bandwidth_gbps = slowest;
    const auto islands = nvlink_islands(v, links);
    std::string where;
    if (islands.size() == 1 && static_cast<int>(islands.front().size()) == v.n) {
      where = fmt::format("NVLink on {} of {} GPU pairs (not a full mesh)", nv_pairs, pairs);
    } else {
      std::vector<std::string> parts;
      for (const auto& island : islands) parts.push_back(compact_gpus(island));
      where = fmt::format("NVLink only within {}", fmt::join(parts, " and "));
    }
    s.headline = fmt::format("{}: {}, the rest over PCIe ({})", inventory_label(v), where,
                             slowest ? fmt::format("{} GB/s", format_gbps(*slowest))
                                     : "bandwidth unknown: " + slowest.reason());
    return s;
  }
  // Every pair is NVLink: a full mesh. NVSwitch when a GPU's bonds exceed what it can own.
  std::string why_switch = switch_evidence(v);
  for (int a = 0; a < v.n && why_switch.empty(); ++a) {
    int sum = 0;
    for (int b = 0; b < v.n; ++b) sum += a == b ? 0 : links.at(a, b).nvlink_count;
    const core::GpuModel* model = v.model(a);
    const bool catalogued = model != nullptr && model->nvlink_links > 0;
    const int limit = catalogued ? model->nvlink_links : kMaxNvLinksAnyGpu;
    if (sum > limit) {
      why_switch = fmt::format("GPU {} bonds {} NVLinks over its {} peers, more than the {} {} can have",
                               v.index(a), sum, v.n - 1, limit,
                               catalogued ? "an " + model->display_name : std::string("any GPU"));
    }
  }
  if (!why_switch.empty()) {
    s.cls = InterconnectClass::nvswitch_full_mesh;
    s.reasoning = fmt::format("every GPU pair is NVLink and {}: the GPUs meet in NVSwitches", why_switch);
    Reading<double> bw = Reading<double>::absent("no GPU");
    int fewest_links = 0;
    for (int a = 0; a < v.n; ++a) {
      int links_per_gpu = 0;
      for (int b = 0; b < v.n; ++b) {
        if (a != b) links_per_gpu = std::max(links_per_gpu, links.at(a, b).nvlink_count);
      }
      fewest_links = a == 0 ? links_per_gpu : std::min(fewest_links, links_per_gpu);
      const auto rate = nvlink_link_rate(v, a);
      const Reading<double> gpu_bw = rate ? Reading<double>(*rate * links_per_gpu) : rate;
      bw = a == 0 ? gpu_bw : min_reading(bw, gpu_bw);
    }
    s.gpu_bandwidth_gbps = bw;
    if (bw) {
      s.headline = fmt::format("{}, NVSwitch full mesh: {}", inventory_label(v), bandwidth_text(bw, "per GPU per direction"));
    } else {
      // A pasted topo -m names no model: the link count still bounds the bandwidth. NVLink 2-4
      // carry 25 GB/s per link per direction and NVLink 5 carries 50 (perf-anchors.md 1.1).
      bool any_unnamed = false;
      bool any_uncatalogued = false;
      for (int p = 0; p < v.n; ++p) {
        const bool has_name = v.gpu(p) != nullptr && v.gpu(p)->name.known();
        any_unnamed = any_unnamed || !has_name;
        any_uncatalogued = any_uncatalogued || (has_name && v.model(p) == nullptr);
      }
      s.headline = fmt::format(
          "{}, NVSwitch full mesh, {} NVLinks per GPU: {} GB/s per GPU per direction at 25 GB/s per link "
          "(NVLink 2-4), {} on NVLink 5; {}",
          inventory_label(v), fewest_links, fewest_links * 25, fewest_links * 50,
          any_uncatalogued ? "a GPU model is not in the catalogue"
          : any_unnamed    ? "give nvidia-smi -q of every GPU to pin the model"
                           : "the per-link rate is unknown");
    }
    return s;
  }
  s.cls = InterconnectClass::nvlink_direct_full_mesh;
  s.reasoning = "every GPU pair is NVLink and no GPU bonds more links than it has: a direct NVLink mesh";
  Reading<double> bw = Reading<double>::absent("no GPU pair");
  int slowest_nv = 0;
  for (int a = 0; a < v.n; ++a) {
    for (int b = a + 1; b < v.n; ++b) {
      const int nv = links.at(a, b).nvlink_count;
      const auto rate = min_reading(nvlink_link_rate(v, a), nvlink_link_rate(v, b));
      const Reading<double> pair_bw = rate ? Reading<double>(*rate * nv) : rate;
      bw = (a == 0 && b == 1) ? pair_bw : min_reading(bw, pair_bw);
      slowest_nv = slowest_nv == 0 ? nv : std::min(slowest_nv, nv);
    }
  }
  s.gpu_bandwidth_gbps = bw;
  s.headline = fmt::format("{}, NVLink direct full mesh: NV{} = {}", inventory_label(v), slowest_nv,
                           bandwidth_text(bw, "per GPU pair per direction"));
  return s;
}

core::InterconnectSummary classify_with_models(const core::Machine& machine,
                                               const std::vector<const core::GpuModel*>& models) {
  const int matrix_size = machine.links ? machine.links->size() : 0;
  View v{machine, models, std::max(static_cast<int>(machine.gpus.size()), matrix_size)};
  if (matrix_size >= 2) {
    v.n = matrix_size;
    return classify_from_matrix(v, *machine.links);
  }
  if (machine.gpus.empty()) {
    v.n = 0;
    return unknown_summary(v, "no GPUs reported");
  }
  return classify_without_matrix(v);
}

core::InterconnectSummary classify_interconnect(const core::Machine& machine, const core::Catalog& catalog) {
  return classify_with_models(machine, match_models(machine, catalog));
}

}  // namespace gpuvet::analysis
