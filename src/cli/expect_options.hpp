// The options shared by inspect and analyze that state what the buyer was promised.
#pragma once

#include <optional>
#include <string>

#include <CLI/CLI.hpp>

#include "analysis/judge.hpp"
#include "core/error.hpp"

namespace gpuvet::cli {

struct ExpectOptions {
  std::string interconnect;          // --expect
  std::optional<double> memory_gib;  // --expect-memory
  std::optional<int> gpu_count;      // --expect-gpus
  std::string workload;              // --workload
  std::string nics;                  // --expect-nic COUNTxRATE (e.g. 8x400: Gb/s per NIC)
  std::string model;                 // --expect-model: catalogue id or a name nvidia-smi prints
  bool same_batch = false;           // --expect-same-batch
};

void add_expect_options(CLI::App& command, ExpectOptions& options);
// Usage errors (exit 2) name the option and what was expected; --expect-model is resolved against
// the built-in GPU catalogue.
core::Result<analysis::Expectations> to_expectations(const ExpectOptions& options);

}  // namespace gpuvet::cli
