// A machine offer to plan on (plan/): GPUs from the catalogue, how many per node and nodes, the
// interconnect class, NICs, price, and what an acceptance bundle measured on it. Built from an
// offers YAML file (parse_offers), a simulator profile or a bundle (cli/plan_offers.cpp).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "accept/accept_model.hpp"
#include "core/assessment.hpp"
#include "core/error.hpp"
#include "core/gpu_model.hpp"

namespace gpuvet::plan {

// Numbers an acceptance bundle measured; each replaces the catalogue's where present.
struct Measured {
  std::string source;                          // "bundle vendor-a/ (report.json)"
  std::optional<double> all_reduce_busbw_gbps; // collectives.all_reduce.all
  std::optional<double> all_gather_busbw_gbps; // collectives.all_gather.all
  std::optional<double> p2p_gbps;              // bandwidth.p2p (lowest pair)
  std::optional<double> tflops;                // burn-in GEMM, the slowest GPU's median
  std::optional<double> memory_gib;            // gpu.memory (smallest GPU)
  std::optional<int> gpus;                     // gpu.count
  std::string gpu_display_name;                // gpu.model observed, "8x H100 SXM5 80GB"
  std::optional<core::InterconnectClass> interconnect;
};

struct Offer {
  std::string name;
  std::string source;                 // "offers.yaml: offers[1]", "simulator profile hgx-h100-8x"
  core::GpuModel gpu;
  int gpus_per_node = 8;
  int nodes = 1;
  core::InterconnectClass interconnect = core::InterconnectClass::unknown;
  int nvlink_island = 0;              // GPUs joined by NVLink in one group (0: from the class)
  int nics_per_node = 0;
  double nic_gbit_s = 0;              // per NIC, Gb/s
  std::optional<double> price_per_gpu_hour;
  std::optional<double> price_per_machine_hour;  // per node
  std::string currency = "USD";       // a label: gpuvet converts nothing
  std::optional<double> mfu;          // this offer's utilisation, overriding the job's and the default
  std::string bundle;                 // bundle directory to read (resolved by the CLI)
  std::optional<Measured> measured;

  [[nodiscard]] int gpus() const { return gpus_per_node * nodes; }
  // Price per GPU-hour from either form; absent when neither was given.
  [[nodiscard]] std::optional<double> gpu_hour_price() const;
};

// offers YAML: a top-level `offers:` list; each entry has name, gpu (catalogue id or display
// name), gpus_per_node, nodes, interconnect (class or nvswitch|nvlink|pcie), nvlink_island, nics
// {count, gbit_s}, price_per_gpu_hour or price_per_machine_hour, mfu, bundle. Errors (bad_input)
// name the file and the field: "offers.yaml: offers[1].price_per_gpu_hour: must not be negative".
core::Result<std::vector<Offer>> parse_offers(std::string_view yaml_text, const std::string& file_name,
                                              const core::Catalog& catalog);

// Highest prices gpuvet believes, per GPU-hour and per machine-hour (an offers file or --price).
inline constexpr double kMaxPricePerGpuHour = 1e6;
inline constexpr double kMaxPricePerMachineHour = 1e7;

// A price as written on the command line: "2.49/gpu-h", "19.92/machine-h", "EUR 2.49/gpu-h",
// "2.49 EUR/gpu-h", "$2.49/gpu-h"; a bare number is per GPU-hour in USD. The currency is a label
// (letters, or $ EUR-sign GBP-sign), never converted. The amount is decimal digits with at most
// one point, more than 0 and at most the ceiling above. Errors (usage) say what was expected.
struct Price {
  double amount = 0;
  bool per_machine = false;  // per machine (node) hour rather than per GPU-hour
  std::string currency = "USD";
};
core::Result<Price> parse_price(std::string_view text);
void apply_price(Offer& offer, const Price& price);

// The catalogue model for an id ("h100-sxm5-80gb") or display name ("H100 SXM5 80GB"); nullptr if none.
const core::GpuModel* find_gpu(const core::Catalog& catalog, std::string_view id_or_name);

// Reads what a bundle's report.json measured (clauses and burn-in GEMM series).
Measured measured_from_report(const accept::AcceptReport& report, const std::string& label);

}  // namespace gpuvet::plan
