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

// SM copy kernels move 79-87 % of the HBM spec as read + write bytes: BabelStream copy 1.61 of
// 2.039 TB/s (A100 80GB), 2.90 of 3.35 (H100 SXM), 4.01 of 4.8 (H200) (perf-anchors.md 4). The
// lowest is the expectation.
constexpr double kMemoryCopyEfficiency = 0.79;

// P2P that leaves a PCIe switch loses some of the rate: 21.8-22.7 vs 26.3 GB/s across root
// complexes (A6000, nvbandwidth#50), 39-51 vs 53-57 across sockets (RTX PRO 6000, rtx6kpro).
double pcie_path_share(core::LinkKind kind) {
  switch (kind) {
    case core::LinkKind::pix:
    case core::LinkKind::pxb: return 1.0;
    case core::LinkKind::sys: return 0.74;
    default: return 0.83;
  }
}

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
      const double path = pcie_path_share(link.kind);
      return {line * kPcieCopyEfficiency * path,
              fmt::format("{} path over PCIe {} GB/s x {:.2f} (P2P over PCIe: RTX 6000 Ada 26.3 of 31.5){}",
                          core::to_string(link), format_gbps(line), kPcieCopyEfficiency,
                          path < 1 ? fmt::format(" x {:.2f} off the switch (A6000 21.8 vs 26.3; RTX PRO 6000 cross-NUMA 39 vs 53)", path) : "")};
    }
  }
  if (fabric.cls == core::InterconnectClass::nvswitch_full_mesh) {
    // A healthy board's rate: links that are down lower the measurement, not the expectation.
    const auto healthy = model != nullptr ? model->nvlink_gbps_per_gpu() : core::Reading<double>::absent("model unknown");
    const auto& per_gpu = healthy ? healthy : fabric.per_gpu_gbps;
    if (per_gpu) {
      return {*per_gpu * kNvlinkCopyEfficiency,
              fmt::format("{}NVSwitch {} GB/s per GPU x {:.2f} (HGX H100 peer copies 371 of 450, nccl#1264)",
                          fabric.inferred, format_gbps(*per_gpu), kNvlinkCopyEfficiency)};
    }
  }
  return none("the path between the GPUs is unknown: give nvidia-smi topo -m of the same machine");
}

PathExpectation expected_memory_copy(const core::GpuModel* model) {
  if (model == nullptr) return none("GPU model unknown");
  if (!model->memory_bandwidth_gbps) return none("memory bandwidth of " + model->display_name + " not in the catalogue");
  return {*model->memory_bandwidth_gbps * kMemoryCopyEfficiency,
          fmt::format("{} memory {} GB/s x {:.2f} (STREAM copy reaches 79-87 % of spec; perf-anchors 4)",
                      model->display_name, format_gbps(*model->memory_bandwidth_gbps), kMemoryCopyEfficiency)};
}

std::string likely_host_cause(const core::Gpu* gpu, const core::GpuModel* model) {
  if (gpu == nullptr || !gpu->pcie.gen_current || !gpu->pcie.width_current) return "";
  const int max_gen = gpu->pcie.gen_max.value_or(model != nullptr ? model->pcie_gen : 0);
  const int max_width = gpu->pcie.width_max.value_or(model != nullptr ? model->pcie_width : 0);
  if (*gpu->pcie.gen_current < max_gen || *gpu->pcie.width_current < max_width) {
    return fmt::format("PCIe link at Gen{} x{} (capable of Gen{} x{})", *gpu->pcie.gen_current,
                       *gpu->pcie.width_current, max_gen, max_width);
  }
  return "";
}

std::string likely_peer_cause(const core::Machine& machine, const Fabric& fabric, int a, int b) {
  std::vector<std::string> causes;
  for (int p : {a, b}) {
    if (p < 0 || p >= static_cast<int>(machine.gpus.size())) continue;
    const core::Gpu& gpu = machine.gpus[static_cast<std::size_t>(p)];
    if (gpu.nvlinks && fabric.model != nullptr && fabric.model->nvlink_links > 0) {
      int down = 0;
      for (const auto& port : *gpu.nvlinks) down += port.active.value_or(true) ? 0 : 1;
      if (down > 0) causes.push_back(fmt::format("GPU {}: {} of {} NVLink links down", gpu.index, down, gpu.nvlinks->size()));
    }
    const std::string host = likely_host_cause(&gpu, fabric.model);
    if (!host.empty() && !(machine.links && a < machine.links->size() && b < machine.links->size() &&
                           machine.links->at(a, b).is_nvlink())) {
      causes.push_back(fmt::format("GPU {}: {}", gpu.index, host));
    }
  }
  std::string out;
  for (const auto& c : causes) out += (out.empty() ? "" : "; ") + c;
  return out;
}

}  // namespace gpuvet::analysis
