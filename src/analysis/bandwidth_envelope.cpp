// Copy-engine efficiencies from published healthy machines (GB/s measured / line rate).
#include "analysis/bandwidth_envelope.hpp"

#include <fmt/format.h>

#include "analysis/rule_support.hpp"

namespace gpuvet::analysis {

namespace {

// Pinned host<->device CE copies reach 80-88 % of the PCIe line rate: Gen4 25-27 of 31.5,
// Gen5 51-56 of 63 (perf-anchors.md 1.3: nvbandwidth#15, ml-engineering 8x H200 55.4, Azure
// ND H100 v5 51/52). The lower end is the expectation.
constexpr double kHostCopyEfficiency = 0.82;
// Peer CE copies over NVLink: 371-377 of 450 GB/s on HGX H100 (nccl#1264), 396 on H200
// (ml-engineering), 172 of 200 on H800 (nvbandwidth fixture). The H100 figure is the expectation.
constexpr double kNvlinkCopyEfficiency = 371.0 / 450.0;
// Peer copies over PCIe with P2P: 26.3 of 31.5 GB/s on RTX 6000 Ada (p2p fixture), 24.4 on
// P2P-patched RTX 4090 (tinygrad README), 26.3 same-switch A6000 (nvbandwidth#50).
constexpr double kPcieCopyEfficiency = 0.78;

PathExpectation none(std::string why) { return {core::Reading<double>::absent(why), why}; }

}  // namespace

PathExpectation expected_host_copy(const core::Gpu* gpu, const core::GpuModel* model) {
  core::Gpu blank;
  const core::Gpu& g = gpu != nullptr ? *gpu : blank;
  const auto line = pcie_gpu_gbps(g, model);
  if (!line) return none("PCIe link unknown: " + line.reason());
  return {*line * kHostCopyEfficiency,
          fmt::format("PCIe {} = {} GB/s x {:.2f} (pinned CE copies reach 80-88 % of line rate; perf-anchors 1.3)",
                      pcie_label(g, model), format_gbps(*line), kHostCopyEfficiency)};
}

PathExpectation expected_peer_copy(const core::Machine& machine, const Fabric& fabric, int a, int b) {
  const auto* gpu_a = a < static_cast<int>(machine.gpus.size()) ? &machine.gpus[static_cast<size_t>(a)] : nullptr;
  const auto* gpu_b = b < static_cast<int>(machine.gpus.size()) ? &machine.gpus[static_cast<size_t>(b)] : nullptr;
  const core::GpuModel* model = fabric.model;
  if (machine.links && a < machine.links->size() && b < machine.links->size()) {
    const core::Link link = machine.links->at(a, b);
    if (link.is_nvlink() && fabric.cls != core::InterconnectClass::nvswitch_full_mesh) {
      if (model == nullptr || !model->nvlink_link_gbps) return none("per-link NVLink rate unknown");
      const double line = link.nvlink_count * *model->nvlink_link_gbps;
      return {line * kNvlinkCopyEfficiency,
              fmt::format("NV{} x {} GB/s = {} GB/s x {:.2f} (HGX H100 peer copies, nccl#1264)", link.nvlink_count,
                          format_gbps(*model->nvlink_link_gbps), format_gbps(line), kNvlinkCopyEfficiency)};
    }
    if (!link.is_nvlink()) {
      if (gpu_a == nullptr || gpu_b == nullptr) return none("GPUs not described");
      const auto la = pcie_gpu_gbps(*gpu_a, model);
      const auto lb = pcie_gpu_gbps(*gpu_b, model);
      if (!la || !lb) return none("PCIe link unknown");
      const double line = std::min(*la, *lb);
      return {line * kPcieCopyEfficiency,
              fmt::format("{} path over PCIe {} GB/s x {:.2f} (P2P over PCIe: RTX 6000 Ada 26.3 of 31.5)",
                          core::to_string(link), format_gbps(line), kPcieCopyEfficiency)};
    }
  }
  if (fabric.cls == core::InterconnectClass::nvswitch_full_mesh && fabric.per_gpu_gbps) {
    return {*fabric.per_gpu_gbps * kNvlinkCopyEfficiency,
            fmt::format("{}NVSwitch {} GB/s per GPU x {:.2f} (HGX H100 peer copies 371 of 450, nccl#1264)", fabric.inferred,
                        format_gbps(*fabric.per_gpu_gbps), kNvlinkCopyEfficiency)};
  }
  return none("the path between the GPUs is unknown: give nvidia-smi topo -m of the same machine");
}

}  // namespace gpuvet::analysis
