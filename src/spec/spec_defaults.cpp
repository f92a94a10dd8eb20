// What a short spec leaves out, filled from the GPU catalogue model of gpu.model: memory per GPU,
// PCIe generation and width, the interconnect its form factor implies, the workload its card
// class is for, the same-batch attributes it reports, and a healthy-memory clause.
#include <cmath>

#include <fmt/format.h>

#include "spec/spec.hpp"

namespace gpuvet::spec {

namespace {

template <class T>
Field<T> defaulted(T value, const std::string& origin) {
  return Field<T>{std::move(value), 0, origin};
}

// SXM boards with NVLink meet in NVSwitches from 8 GPUs on (HGX 8-GPU) and are joined directly
// with 4 or fewer (HGX 4-GPU); NVLink on PCIe cards is a bridge, so nothing is implied there.
std::optional<InterconnectClaim> implied_interconnect(const core::GpuModel& model, std::optional<int> count) {
  if (model.nvlink_generation == 0) return InterconnectClaim{core::InterconnectClass::pcie_only, false, "pcie"};
  if (model.form_factor != "sxm" || !count) return std::nullopt;
  if (*count >= 8) return InterconnectClaim{core::InterconnectClass::nvswitch_full_mesh, false, "nvswitch"};
  return InterconnectClaim{core::InterconnectClass::nvlink_direct_full_mesh, true, "nvlink"};
}

std::vector<std::string> batch_attributes(const core::GpuModel& model) {
  // GeForce boards report no part number, and ECC is a setting few of them have.
  if (model.card_class == core::CardClass::consumer) return {"model", "vbios", "memory", "power_limit"};
  return {"model", "vbios", "board_part_number", "memory", "power_limit", "ecc_mode"};
}

}  // namespace

void apply_defaults(Spec& spec, const core::Catalog& catalog) {
  if (spec.numa && spec.numa->value.gpus_per_node == 0 && spec.gpu_count &&
      spec.gpu_count->value % spec.numa->value.nodes == 0) {
    spec.numa->value.gpus_per_node = spec.gpu_count->value / spec.numa->value.nodes;
  }
  if (!spec.gpu_model) return;
  const core::GpuModel* model = catalog.by_id(spec.gpu_model->value);
  if (model == nullptr) return;
  const std::string origin = "catalogue " + model->id;
  if (!spec.memory_gib) spec.memory_gib = defaulted(model->memory_gib, origin);
  if (!spec.pcie_gen && model->pcie_gen > 0) spec.pcie_gen = defaulted(model->pcie_gen, origin);
  if (!spec.pcie_width && model->pcie_width > 0) spec.pcie_width = defaulted(model->pcie_width, origin);
  if (!spec.same_batch) spec.same_batch = defaulted(batch_attributes(*model), origin);
  if (!spec.healthy) spec.healthy = defaulted(true, "default");
  if (!spec.interconnect) {
    auto claim = implied_interconnect(*model, spec.gpu_count ? std::optional<int>(spec.gpu_count->value) : std::nullopt);
    if (claim) spec.interconnect = defaulted(*claim, origin + " (" + model->form_factor + ")");
  }
  if (!spec.workload) {
    spec.workload = defaulted(model->card_class == core::CardClass::training ? Workload::train : Workload::infer,
                              origin + " (" + std::string(core::to_string(model->card_class)) + " card)");
  }
}

}  // namespace gpuvet::spec
