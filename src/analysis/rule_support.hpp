// Shared pieces of the judge's rule families (internal to analysis/): the rule context,
// finding construction, GPU-list wording, bandwidth arithmetic and cpulist parsing.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/judge.hpp"
#include "core/assessment.hpp"
#include "core/finding.hpp"
#include "core/gpu_model.hpp"
#include "core/machine.hpp"

namespace gpuvet::analysis {

// Everything a rule may read. `models` holds the catalogue model of each entry of
// machine.gpus (same positions), nullptr when the name is unknown or not in the catalogue.
struct RuleContext {
  const core::Machine& machine;
  const core::Catalog& catalog;
  const Expectations& expect;
  std::vector<const core::GpuModel*> models;
  core::InterconnectSummary interconnect;
};

std::vector<const core::GpuModel*> match_models(const core::Machine& machine, const core::Catalog& catalog);

// A finding with the catalogue's generic next step for `code`.
core::Finding make_finding(std::string_view code, core::Severity severity, std::vector<int> gpus,
                           std::string message);

// "GPU 3", "GPUs 0, 4, 6, 7", "GPUs 4-7", "GPUs 0-2, 5" (sorted, runs of 3+ collapsed).
std::string describe_gpus(std::vector<int> indices);
// "GPU0-3", "GPU0,2": the compact form used in headlines (nvidia-smi topo -m style).
std::string compact_gpus(std::vector<int> indices);
// The catalogue display name, else the name the GPU reports, else "GPU".
std::string model_label(const core::Gpu& gpu, const core::GpuModel* model);
// A bandwidth in GB/s for people: 450, 31.5, 15.8, 63.
std::string format_gbps(double gbps);

using core::pcie_lane_gbps;  // core/gpu_model.hpp
// The PCIe rate this GPU's slot can carry per direction: generation from gen_max, else the
// catalogue, else gen_current; width from width_max, else width_current, else the catalogue.
core::Reading<double> pcie_gpu_gbps(const core::Gpu& gpu, const core::GpuModel* model);
// "Gen4 x16" for the same choice, or "" when unknown.
std::string pcie_label(const core::Gpu& gpu, const core::GpuModel* model);

// Parses a Linux cpulist ("0-31,64-95"); nullopt when malformed.
std::optional<std::set<int>> parse_cpulist(std::string_view text);
// Case-insensitive substring search.
bool contains_nocase(std::string_view haystack, std::string_view needle);
// The source notes that say the input may leave GPUs out: elided, trimmed, omitted, truncated, or
// cut ("the table is cut short", "the input looks cut", "ends inside the header of GPU 2", "topo -m is
// truncated": its header names every GPU, the GPUs without their row are Gpu::unseen).
std::vector<std::string> trimming_notes(const core::Machine& m);
// True when trimming_notes is not empty.
bool input_trimmed(const core::Machine& m);
// True when the reading is known and true.
inline bool known_true(const core::Reading<bool>& r) { return r.known() && r.value(); }

}  // namespace gpuvet::analysis
