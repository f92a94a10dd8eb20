// Internal to analysis/: the view of a machine the interconnect classifier works on, and the
// pieces shared by classification from a topo -m matrix and inference without one.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "analysis/rule_support.hpp"

namespace gpuvet::analysis {

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
std::string inventory_label(const View& v);
// Per-link, per-direction NVLink rate of the GPU at position p: catalogue, else a port's speed.
core::Reading<double> nvlink_link_rate(const View& v, int p);
// PCIe rate of the GPU at position p (see pcie_gpu_gbps).
core::Reading<double> pcie_rate(const View& v, int p);
// The smaller of two readings; absent when either is.
core::Reading<double> min_reading(const core::Reading<double>& a, const core::Reading<double>& b);
// Why we believe an NVSwitch is present, independent of link counts; "" when nothing says so.
std::string switch_evidence(const View& v);
// "450 GB/s <unit>" or "bandwidth unknown: <reason>".
std::string bandwidth_text(const core::Reading<double>& gbps, std::string_view unit);
core::InterconnectSummary pcie_summary(const View& v, std::string reasoning);
core::InterconnectSummary unknown_summary(const View& v, std::string reasoning);

// interconnect_classifier.cpp: from a topo -m matrix of v.n >= 2 GPUs.
core::InterconnectSummary classify_from_matrix(const View& v, const core::LinkMatrix& links);
// interconnect_inferred.cpp: from nvidia-smi -q / nvlink -s facts alone (machine.gpus non-empty).
core::InterconnectSummary classify_without_matrix(const View& v);

}  // namespace gpuvet::analysis
