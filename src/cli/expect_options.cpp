// --expect, --expect-memory, --expect-gpus, --workload, --expect-nic, --expect-model,
// --expect-same-batch -> analysis::Expectations.
#include "cli/expect_options.hpp"

#include <algorithm>
#include <cctype>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "catalog/gpu_catalog.hpp"

namespace gpuvet::cli {

namespace {

// CLI11's PositiveNumber prints its whole double range on failure; say what is wanted instead.
CLI::Validator positive(const char* what) {
  return CLI::Validator(
      [what](std::string& text) -> std::string {
        try {
          std::size_t used = 0;
          const double v = std::stod(text, &used);
          if (used == text.size() && v > 0) return {};
        } catch (const std::exception&) {
        }
        return std::string("expected ") + what + ", got '" + text + "'";
      },
      what, "positive");
}

// A promise given as an empty value ("--expect-model \"$MODEL\"" with MODEL unset) is a usage
// error, not a promise left out: skipping it would let the run pass without the check asked for.
CLI::Validator stated(const char* what) {
  return CLI::Validator(
      [what](std::string& text) -> std::string {
        if (text.find_first_not_of(" \t") != std::string::npos) return {};
        return std::string("empty; expected ") + what + " (leave the option out to state no promise)";
      },
      what, "stated");
}

// "h100-sxm5-80gb" or a name nvidia-smi prints ("NVIDIA H100 80GB HBM3") -> catalogue id.
core::Result<std::string> resolve_model(const std::string& text) {
  const core::Catalog& catalog = catalog::gpu_catalog();
  std::string lower = text;
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  if (const auto* model = catalog.by_id(lower)) return model->id;
  if (const auto* model = catalog.match(text)) return model->id;
  std::vector<std::string> near;
  for (const auto& model : catalog.models()) {
    if (model.id.find(lower) != std::string::npos) near.push_back(model.id);
  }
  const std::string ids = near.empty() ? std::string("e.g. h100-sxm5-80gb, as in profiles/gpus.yaml")
                                        : fmt::format("one of {}", fmt::join(near, ", "));
  return core::usage_error(fmt::format(
      "--expect-model {}: not a GPU model in the catalogue; give its id ({}) or the name nvidia-smi prints", text, ids));
}

}  // namespace

void add_expect_options(CLI::App& command, ExpectOptions& options) {
  command.add_option("--expect", options.interconnect,
                     "Interconnect you were promised: nvswitch, nvlink (any NVLink full mesh), pcie, "
                     "or a class name (nvswitch_full_mesh, nvlink_direct_full_mesh, nvlink_partial, pcie_only)")
      ->check(stated("nvswitch, nvlink, pcie or an interconnect class name"));
  command.add_option("--expect-memory", options.memory_gib, "Memory per GPU you were promised, in GiB (e.g. 80)")
      ->check(positive("GiB above 0"));
  command.add_option("--expect-gpus", options.gpu_count, "Number of GPUs you were promised")
      ->check(positive("a whole number of GPUs, 1 or more"));
  command.add_option("--workload", options.workload, "What the machine is for: train or infer")
      ->check(CLI::IsMember({"train", "infer"}));
  command.add_option("--expect-nic", options.nics,
                     "RDMA NICs per node you were promised, COUNTxRATE in Gb/s (e.g. 8x400): judges multi-node "
                     "nccl-tests logs (NIC count x rate x 0.92, at most one NIC per GPU)")
      ->check(stated("COUNTxRATE, e.g. 8x400"));
  command.add_option("--expect-model", options.model,
                     "GPU model you were sold: a catalogue id (h100-sxm5-80gb) or the name nvidia-smi prints; "
                     "another model fails (model_not_as_claimed)")
      ->check(stated("a catalogue id such as h100-sxm5-80gb or the name nvidia-smi prints"));
  command.add_flag("--expect-same-batch", options.same_batch,
                   "The GPUs were sold as one batch: differing VBIOS, board part number or memory size fails "
                   "(mixed_inventory) instead of warning");
}

core::Result<analysis::Expectations> to_expectations(const ExpectOptions& options) {
  analysis::Expectations expect;
  if (!options.interconnect.empty()) {
    core::InterconnectClass cls{};
    bool any_nvlink = false;
    if (!core::parse_interconnect_claim(options.interconnect, cls, any_nvlink)) {
      return core::usage_error("--expect " + options.interconnect +
                               ": expected nvswitch, nvlink, pcie, nvswitch_full_mesh, "
                               "nvlink_direct_full_mesh, nvlink_partial or pcie_only");
    }
    expect.interconnect = cls;
    expect.interconnect_any_nvlink_mesh = any_nvlink;
  }
  expect.memory_gib = options.memory_gib;
  expect.gpu_count = options.gpu_count;
  if (!options.workload.empty()) expect.workload = options.workload;
  if (!options.model.empty()) {
    auto id = resolve_model(options.model);
    if (!id) return id.error();
    expect.model_id = *id;
  }
  expect.same_batch = options.same_batch;
  if (!options.nics.empty()) {
    const auto x = options.nics.find_first_of("xX");
    int count = 0;
    double rate = 0;
    try {
      std::size_t used_count = 0, used_rate = 0;
      if (x != std::string::npos) {
        count = std::stoi(options.nics.substr(0, x), &used_count);
        rate = std::stod(options.nics.substr(x + 1), &used_rate);
      }
      if (x == std::string::npos || used_count != x || used_rate != options.nics.size() - x - 1) count = 0;
    } catch (const std::exception&) {
      count = 0;
    }
    if (count < 1 || count > 64 || !(rate > 0) || rate > 10000) {
      return core::usage_error("--expect-nic " + options.nics +
                               ": expected COUNTxRATE, NICs per node (1-64) x Gb/s per NIC, e.g. 8x400 or 1x100");
    }
    expect.nic_count = count;
    expect.nic_gbit_s = rate;
  }
  return expect;
}

}  // namespace gpuvet::cli
