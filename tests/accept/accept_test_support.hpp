// Runs the accept stages against a simulated machine and a spec text (no CLI, no files).
#pragma once

#include <string>
#include <vector>

#include "accept/registry.hpp"
#include "accept/runner.hpp"

namespace gpuvet::accept::testing {

struct Outcome {
  std::vector<StageRecord> stages;
  core::Verdict verdict = core::Verdict::incomplete;
  std::vector<std::string> why;
  // The clause with this id; fails the test when absent.
  [[nodiscard]] const ClauseResult& clause(const std::string& id) const;
};

// The quick-gate sections of a template (gpu, pcie, interconnect, numa, workload, nics): the
// sections the gates decide, so a clean machine can pass without the measuring stages.
std::string gates_only(const std::string& template_name);

Outcome run_on_sim(const std::string& profile, const std::vector<std::string>& faults, const std::string& spec_text,
                   StageProviders providers = {}, RunOptions options = {}, const std::vector<StageRecord>& resumed = {});

}  // namespace gpuvet::accept::testing
