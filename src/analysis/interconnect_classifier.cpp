// Decides the interconnect class of a machine (NVSwitch mesh, direct NVLink mesh, partial
// NVLink, PCIe only, unknown), the per-GPU bandwidth it implies, and a headline for buyers.
#include <algorithm>
#include <map>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "analysis/rules.hpp"

namespace gpuvet::analysis {
namespace {

using core::InterconnectClass;
using core::Reading;

// The most NVLinks any shipping GPU has (H100/H200/B200 SXM); used when the model is unknown.
constexpr int kMaxNvLinksAnyGpu = 18;

// Positions 0..n-1 of the link matrix, mapped onto machine.gpus where those exist.
struct View {
  const core::Machine& machine;
  const std::vector<const core::GpuModel*>& models;
  int n = 0;

  [[nodiscard]] const core::GpuModel* model(int p) const {
    return p < static_cast<int>(models.size()) ? models[static_cast<size_t>(p)] : nullptr;
  }
  [[nodiscard]] const core::Gpu* gpu(int p) const {
    return p < static_cast<int>(machine.gpus.size()) ? &machine.gpus[static_cast<size_t>(p)] : nullptr;
  }
  [[nodiscard]] int index(int p) const { return gpu(p) != nullptr ? gpu(p)->index : p; }
  [[nodiscard]] std::string label(int p) const {
    return gpu(p) != nullptr ? model_label(*gpu(p), model(p)) : std::string("GPU");
  }
};

// "8x H100 SXM5 80GB" or "4x A100 PCIe 80GB + 4x A100 SXM4 80GB" (order of first appearance).
std::string inventory_label(const View& v) {
  std::vector<std::pair<std::string, int>> groups;
  for (int p = 0; p < v.n; ++p) {
    const std::string label = v.label(p);
    auto it = std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.first == label; });
    if (it == groups.end()) groups.emplace_back(label, 1);
    else ++it->second;
  }
  std::string out;
  for (const auto& [label, count] : groups) {
    if (!out.empty()) out += " + ";
    out += fmt::format("{}x {}", count, label);
  }
  return out;
}

// Per-link, per-direction NVLink rate of the GPU at position p: catalogue, else a port's speed.
Reading<double> nvlink_link_rate(const View& v, int p) {
  const core::GpuModel* model = v.model(p);
  if (model != nullptr && model->nvlink_link_gbps) return *model->nvlink_link_gbps;
  if (const core::Gpu* gpu = v.gpu(p); gpu != nullptr && gpu->nvlinks) {
    for (const auto& port : *gpu->nvlinks) {
      if (known_true(port.active) && port.speed_gbps) return *port.speed_gbps;
    }
  }
  return Reading<double>::absent(fmt::format("per-link NVLink rate of GPU {} unknown (model not in the catalogue)",
                                             v.index(p)));
}

Reading<double> pcie_rate(const View& v, int p) {
  if (v.gpu(p) == nullptr) return Reading<double>::absent(fmt::format("GPU {} not described", p));
  return pcie_gpu_gbps(*v.gpu(p), v.model(p));
}

Reading<double> min_reading(const Reading<double>& a, const Reading<double>& b) {
  if (!a) return a;
  if (!b) return b;
  return std::min(*a, *b);
}

// Why we believe an NVSwitch is present, independent of link counts; "" when nothing says so.
std::string switch_evidence(const View& v) {
  if (known_true(v.machine.nvswitch_present)) return "the source reports NVSwitch devices";
  for (const auto& gpu : v.machine.gpus) {
    if (!gpu.nvlinks) continue;
    for (const auto& port : *gpu.nvlinks) {
      if (port.remote && *port.remote == core::NvLinkRemote::nvswitch) {
        return fmt::format("GPU {} NVLink {} ends at an NVSwitch", gpu.index, port.link);
      }
    }
  }
  return "";
}

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

std::string bandwidth_text(const Reading<double>& gbps, std::string_view unit) {
  if (!gbps) return fmt::format("bandwidth unknown ({})", gbps.reason());
  return fmt::format("{} GB/s {}", format_gbps(*gbps), unit);
}

core::InterconnectSummary pcie_summary(const View& v, std::string reasoning) {
  core::InterconnectSummary s;
  s.cls = InterconnectClass::pcie_only;
  s.reasoning = std::move(reasoning);
  Reading<double> bw = Reading<double>::absent("no GPU");
  for (int p = 0; p < v.n; ++p) bw = p == 0 ? pcie_rate(v, p) : min_reading(bw, pcie_rate(v, p));
  s.gpu_bandwidth_gbps = bw;
  std::string link = v.gpu(0) != nullptr ? pcie_label(*v.gpu(0), v.model(0)) : "";
  for (int p = 1; p < v.n && !link.empty(); ++p) {
    if (v.gpu(p) == nullptr || pcie_label(*v.gpu(p), v.model(p)) != link) link.clear();
  }
  s.headline = fmt::format("{}, PCIe only: {}{}", inventory_label(v),
                           bandwidth_text(bw, "per GPU per direction"), link.empty() ? "" : " (" + link + ")");
  return s;
}

core::InterconnectSummary from_matrix(const View& v, const core::LinkMatrix& links) {
  int nv_pairs = 0;
  int pairs = 0;
  for (int a = 0; a < v.n; ++a) {
    for (int b = a + 1; b < v.n; ++b) {
      ++pairs;
      if (links.at(a, b).is_nvlink()) ++nv_pairs;
    }
  }
  if (nv_pairs == 0) {
    return pcie_summary(v, fmt::format("topo -m shows no NVLink between any of the {} GPU pairs", pairs));
  }
  core::InterconnectSummary s;
  if (nv_pairs < pairs) {
    s.cls = InterconnectClass::nvlink_partial;
    s.reasoning = fmt::format("topo -m shows NVLink on {} of {} GPU pairs; the rest go over PCIe", nv_pairs, pairs);
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
    for (int a = 0; a < v.n; ++a) {
      int links_per_gpu = 0;
      for (int b = 0; b < v.n; ++b) {
        if (a != b) links_per_gpu = std::max(links_per_gpu, links.at(a, b).nvlink_count);
      }
      const auto rate = nvlink_link_rate(v, a);
      const Reading<double> gpu_bw = rate ? Reading<double>(*rate * links_per_gpu) : rate;
      bw = a == 0 ? gpu_bw : min_reading(bw, gpu_bw);
    }
    s.gpu_bandwidth_gbps = bw;
    s.headline = fmt::format("{}, NVSwitch full mesh: {}", inventory_label(v), bandwidth_text(bw, "per GPU per direction"));
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

bool fabric_state_reported(const core::Gpu& gpu) {
  if (!gpu.fabric_state) return false;
  const std::string& st = *gpu.fabric_state;
  return !st.empty() && !contains_nocase(st, "N/A") && !contains_nocase(st, "not supported");
}

core::InterconnectSummary unknown_summary(const View& v, std::string reasoning) {
  core::InterconnectSummary s;
  s.cls = InterconnectClass::unknown;
  s.reasoning = std::move(reasoning);
  s.gpu_bandwidth_gbps = Reading<double>::absent("interconnect unknown");
  const std::string inventory = inventory_label(v);
  s.headline = inventory.empty() ? "interconnect unknown: " + s.reasoning
                                 : fmt::format("{}, interconnect unknown: {}", inventory, s.reasoning);
  return s;
}

core::InterconnectSummary without_matrix(const View& v) {
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

  const core::GpuModel* first = v.model(0);
  const bool hgx4 = v.n == 4 && m.attached_gpus.value_or(4) == 4 && first != nullptr && first->form_factor == "sxm" &&
                    first->nvlink_links > 0 && (first->architecture == "Ampere" || first->architecture == "Hopper") &&
                    std::all_of(v.models.begin(), v.models.end(), [&](const core::GpuModel* mdl) { return mdl == first; }) &&
                    std::none_of(m.gpus.begin(), m.gpus.end(), fabric_state_reported);
  if (hgx4) {
    core::InterconnectSummary s;
    s.cls = InterconnectClass::nvlink_direct_full_mesh;
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

}  // namespace

core::InterconnectSummary classify_with_models(const core::Machine& machine,
                                               const std::vector<const core::GpuModel*>& models) {
  const int matrix_size = machine.links ? machine.links->size() : 0;
  View v{machine, models, std::max(static_cast<int>(machine.gpus.size()), matrix_size)};
  if (matrix_size >= 2) {
    v.n = matrix_size;
    return from_matrix(v, *machine.links);
  }
  if (machine.gpus.empty()) {
    v.n = 0;
    return unknown_summary(v, "no GPUs reported");
  }
  return without_matrix(v);
}

core::InterconnectSummary classify_interconnect(const core::Machine& machine, const core::Catalog& catalog) {
  return classify_with_models(machine, match_models(machine, catalog));
}

}  // namespace gpuvet::analysis
