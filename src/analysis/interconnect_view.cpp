// Shared pieces of the interconnect classifier: inventory wording, per-GPU NVLink and PCIe
// rates, NVSwitch evidence, and the PCIe-only and unknown summaries.
#include "analysis/interconnect_view.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace gpuvet::analysis {

using core::InterconnectClass;
using core::Reading;

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
    out += label == "GPU" ? fmt::format("{} GPUs (model not in this input)", count)
                          : fmt::format("{}x {}", count, label);
  }
  return out;
}

Reading<double> nvlink_link_rate(const View& v, int p) {
  const core::GpuModel* model = v.model(p);
  if (model != nullptr && model->nvlink_link_gbps) return *model->nvlink_link_gbps;
  if (const core::Gpu* gpu = v.gpu(p); gpu != nullptr && gpu->nvlinks) {
    for (const auto& port : *gpu->nvlinks) {
      if (known_true(port.active) && port.speed_gbps) return *port.speed_gbps;
    }
  }
  const bool named = v.gpu(p) != nullptr && v.gpu(p)->name.known();
  return Reading<double>::absent(fmt::format("per-link NVLink rate of GPU {} unknown: {}", v.index(p),
                                             named ? "model not in the catalogue" : "GPU model not reported"));
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

std::string switch_evidence(const View& v) {
  if (known_true(v.machine.nvswitch_present)) return "the source reports NVSwitch devices";
  const auto& gpus = v.machine.gpus;
  if (!gpus.empty() && std::all_of(gpus.begin(), gpus.end(), [](const core::Gpu& g) {
        return g.fabric_state && contains_nocase(*g.fabric_state, "completed");
      })) {
    return "the NVSwitch fabric manager reports state Completed on every GPU";
  }
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


std::string bandwidth_text(const Reading<double>& gbps, std::string_view unit) {
  if (!gbps) return fmt::format("bandwidth unknown: {}", gbps.reason());
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

}  // namespace gpuvet::analysis
