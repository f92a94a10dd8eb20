// What a short spec leaves out, filled from the GPU catalogue model of gpu.model: memory per GPU,
// PCIe generation and width, the interconnect its form factor implies, the workload its card
// class is for, the same-batch attributes it reports, and a healthy-memory clause.
#include <cmath>
#include <regex>

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

std::optional<double> parse_duration(std::string_view text) {
  static const std::regex kPlain(R"(\s*([0-9]+(\.[0-9]+)?)\s*)");
  static const std::regex kParts(R"(\s*(([0-9]+(\.[0-9]+)?)h)?\s*(([0-9]+(\.[0-9]+)?)m)?\s*(([0-9]+(\.[0-9]+)?)s)?\s*)");
  const std::string s(text);
  std::smatch m;
  if (std::regex_match(s, m, kPlain)) return std::stod(m[1]);
  if (!std::regex_match(s, m, kParts) || (!m[2].matched && !m[5].matched && !m[8].matched)) return std::nullopt;
  double seconds = 0;
  if (m[2].matched) seconds += std::stod(m[2]) * 3600;
  if (m[5].matched) seconds += std::stod(m[5]) * 60;
  if (m[8].matched) seconds += std::stod(m[8]);
  return seconds;
}

std::string format_duration(double seconds) {
  const auto s = static_cast<long long>(std::llround(seconds));
  if (s % 3600 == 0 && s >= 3600) return fmt::format("{}h", s / 3600);
  if (s % 60 == 0 && s >= 60) return fmt::format("{}m", s / 60);
  return fmt::format("{}s", s);
}

}  // namespace gpuvet::spec
