// --expect, --expect-memory, --expect-gpus, --workload, --expect-nic -> analysis::Expectations.
#include "cli/expect_options.hpp"

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

}  // namespace

void add_expect_options(CLI::App& command, ExpectOptions& options) {
  command.add_option("--expect", options.interconnect,
                     "Interconnect you were promised: nvswitch, nvlink (any NVLink full mesh), pcie, "
                     "or a class name (nvswitch_full_mesh, nvlink_direct_full_mesh, nvlink_partial, pcie_only)");
  command.add_option("--expect-memory", options.memory_gib, "Memory per GPU you were promised, in GiB (e.g. 80)")
      ->check(positive("GiB above 0"));
  command.add_option("--expect-gpus", options.gpu_count, "Number of GPUs you were promised")
      ->check(positive("a whole number of GPUs, 1 or more"));
  command.add_option("--workload", options.workload, "What the machine is for: train or infer")
      ->check(CLI::IsMember({"train", "infer"}));
  command.add_option("--expect-nic", options.nics,
                     "RDMA NICs per node you were promised, COUNTxRATE in Gb/s (e.g. 8x400): judges multi-node "
                     "nccl-tests logs (NIC count x rate x 0.92, at most one NIC per GPU)");
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
