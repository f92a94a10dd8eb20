// Catalogue lookups.
#include "core/gpu_model.hpp"

#include <regex>

namespace gpuvet::core {

std::string_view to_string(CardClass card_class) {
  switch (card_class) {
    case CardClass::training: return "training";
    case CardClass::inference: return "inference";
    case CardClass::workstation: return "workstation";
    case CardClass::consumer: return "consumer";
  }
  return "training";
}

Reading<double> GpuModel::nvlink_gbps_per_gpu() const {
  if (nvlink_generation == 0 || nvlink_links == 0) return Reading<double>::absent("no NVLink");
  if (!nvlink_link_gbps) return Reading<double>::absent(nvlink_link_gbps.reason());
  return *nvlink_link_gbps * nvlink_links;
}

const GpuModel* Catalog::match(std::string_view gpu_name) const {
  const std::string name(gpu_name);
  for (const auto& model : models_) {
    for (const auto& pattern : model.name_patterns) {
      const std::regex re(pattern, std::regex::ECMAScript | std::regex::icase);
      if (std::regex_search(name, re)) return &model;
    }
  }
  return nullptr;
}

const GpuModel* Catalog::by_id(std::string_view id) const {
  for (const auto& model : models_) {
    if (model.id == id) return &model;
  }
  return nullptr;
}

Reading<double> pcie_lane_gbps(int gen) {
  switch (gen) {
    case 1: return 0.25;
    case 2: return 0.5;
    case 3: return 0.985;
    case 4: return 1.969;
    case 5: return 3.938;
    case 6: return 7.563;
    default: return Reading<double>::absent("PCIe generation " + std::to_string(gen) + " not known");
  }
}

}  // namespace gpuvet::core
