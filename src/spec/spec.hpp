// The acceptance spec: what a buyer was promised and what is acceptable (docs/spec.md).
// Parsed from YAML (spec_parser.cpp), completed with defaults from the GPU catalogue
// (spec_defaults.cpp) and read by accept/, which turns every stated item into a clause.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/assessment.hpp"
#include "core/error.hpp"
#include "core/gpu_model.hpp"
#include "core/traffic.hpp"

namespace gpuvet::spec {

inline constexpr int kSpecVersion = 1;

// One stated item: its value and where it came from. line > 0: written on that line of the spec
// file; line == 0: a default, and `origin` says which ("catalogue h100-sxm5-80gb").
template <class T>
struct Field {
  T value{};
  int line = 0;
  std::string origin;
};

struct InterconnectClaim {
  core::InterconnectClass cls = core::InterconnectClass::unknown;
  bool any_nvlink_mesh = false;  // "nvlink": either NVLink full mesh is acceptable
  std::string text;              // as written
};

struct NumaLayout {
  int nodes = 0;          // NUMA nodes holding GPUs
  int gpus_per_node = 0;  // GPUs on each of them
};

struct NicRequirement {
  int count = 0;                           // ACTIVE ports at least this fast
  std::optional<double> min_rate_gbit_s;   // nullopt: any rate
};

// A bandwidth floor in GB/s; nullopt means "auto": the envelope for this machine decides.
using Floor = std::optional<double>;

struct BusbwFloor {
  std::string op;   // nccl-tests name: all_reduce, all_gather, ...
  int gpus = 0;     // communicator size; 0 = all GPUs of the machine ("all")
  Floor gbps;
  int line = 0;
};

struct BurninLimits {
  double duration_s = 0;            // soak length
  double throttle_max_fraction = 0; // share of samples with a thermal/power slowdown reason
  int ecc_uncorrectable_max = 0;    // new uncorrectable ECC errors tolerated
  int xid_max = 0;                  // XID events tolerated
  int nvlink_errors_max = 0;        // growth of NVLink CRC/replay/recovery counters tolerated
  core::TrafficSettings traffic;    // link traffic beside the load (burnin.traffic, traffic_share); none by default
  double busbw_hot_min_fraction = 0.9;  // collective busbw hot at least this share of the cold interval's
};

enum class Workload { train, infer };
std::string_view to_string(Workload workload);

// Attributes that must be equal on every GPU ("same batch").
inline constexpr std::string_view kBatchAttributes[] = {"model",        "vbios",    "board_part_number",
                                                        "memory",       "power_limit", "max_clocks",
                                                        "ecc_mode",     "mig_mode", "inforom"};

struct Spec {
  int version = kSpecVersion;
  std::string name;         // template or offer name
  std::string description;
  std::string file_name;    // where it was read from (messages)

  std::optional<Field<std::string>> gpu_model;  // catalogue id
  std::optional<Field<int>> gpu_count;
  std::optional<Field<double>> memory_gib;      // per GPU, as sold
  std::optional<Field<std::vector<std::string>>> same_batch;
  std::optional<Field<bool>> healthy;           // no pending remap, remap failure, retired pages
  std::optional<Field<int>> pcie_gen;
  std::optional<Field<int>> pcie_width;
  std::optional<Field<InterconnectClaim>> interconnect;
  std::optional<Field<NumaLayout>> numa;
  std::optional<Field<Workload>> workload;
  std::optional<Field<NicRequirement>> nics;
  std::optional<Field<Floor>> h2d_gbps;         // host<->device per GPU
  std::optional<Field<Floor>> p2p_gbps;         // peer copy per GPU pair
  std::optional<Field<double>> vram_min_fraction;  // of memory_gib usable and error-free
  std::vector<BusbwFloor> busbw;
  std::optional<Field<double>> scaling_efficiency;  // busbw at N GPUs / busbw at 2 GPUs
  std::optional<Field<BurninLimits>> burnin;
};

// Parses a spec and applies the catalogue defaults. Errors are bad_input and read
// "<file>: line N: <key>: <what was expected>".
core::Result<Spec> parse_spec(std::string_view yaml_text, const std::string& file_name,
                              const core::Catalog& catalog);

// Fills what the spec leaves out from the catalogue model of gpu.model (spec_defaults.cpp).
void apply_defaults(Spec& spec, const core::Catalog& catalog);

// The shortest and longest burn-in a spec may ask for: a soak shorter than a minute judges
// nothing, and a month is what `gpuvet burnin --duration` allows.
inline constexpr double kMinBurninS = 60;

}  // namespace gpuvet::spec
