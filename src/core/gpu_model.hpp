// One entry of the GPU catalogue (profiles/gpus.yaml): what a model is sold as and what it
// should deliver. Loaded by the catalog library; read by the judge and the simulator.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/reading.hpp"

namespace gpuvet::core {

enum class CardClass { training, inference, workstation, consumer };
std::string_view to_string(CardClass card_class);

struct GpuModel {
  std::string id;                          // "h100-sxm5-80gb"
  std::string display_name;                // "H100 SXM5 80GB"
  std::vector<std::string> name_patterns;  // ECMAScript regexes, case-insensitive, on the NVML name
  std::string nvml_name;                   // the name NVML / nvidia-smi prints (simulator uses it)
  std::string architecture;                // "Hopper"
  std::string compute_capability;          // "9.0"
  std::string form_factor;                 // "sxm", "pcie", "nvl"
  CardClass card_class = CardClass::training;
  double memory_gib = 0;                   // as sold (80 for an "80GB" card)
  Reading<std::uint64_t> memory_reported_mib;  // FB total a healthy card reports (nvidia-smi -q)
  std::string memory_type;                 // "HBM3"
  Reading<double> memory_bandwidth_gbps;   // spec, GB/s
  int nvlink_generation = 0;               // 0 = no NVLink
  int nvlink_links = 0;                    // links per GPU
  Reading<double> nvlink_link_gbps;        // per link, per direction, GB/s
  int pcie_gen = 0;
  int pcie_width = 16;
  Reading<double> tdp_w;
  Reading<double> fp64_tflops;             // dense
  Reading<double> fp32_tflops;
  Reading<double> tf32_tflops;
  Reading<double> bf16_tflops;
  Reading<double> fp8_tflops;
  std::string vbios;                       // typical VBIOS (simulator)
  std::string board_part_number;           // typical board part number (simulator)
  Reading<int> max_sm_clock_mhz;
  Reading<int> max_mem_clock_mhz;
  std::string source;                      // where the numbers come from

  // Per-direction NVLink bandwidth of one GPU (links x per-link rate), when it has NVLink.
  [[nodiscard]] Reading<double> nvlink_gbps_per_gpu() const;
};

// PCIe line rate per lane per direction in GB/s after encoding (gen3 0.985, gen4 1.969,
// gen5 3.938, gen6 7.563); absent for a generation not known.
Reading<double> pcie_lane_gbps(int gen);

class Catalog {
 public:
  Catalog() = default;
  explicit Catalog(std::vector<GpuModel> models) : models_(std::move(models)) {}

  [[nodiscard]] const std::vector<GpuModel>& models() const { return models_; }
  // First model whose pattern matches the name nvidia-smi prints; nullptr when none does.
  [[nodiscard]] const GpuModel* match(std::string_view gpu_name) const;
  [[nodiscard]] const GpuModel* by_id(std::string_view id) const;

 private:
  std::vector<GpuModel> models_;
};

}  // namespace gpuvet::core
